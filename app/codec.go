package app

import "errors"

// startCodec serves the payload codec endpoint of the dev Temporal Web UI
// (POST /encode, /decode) on opts.CodecListener, when there is one: a
// loopback listener of its own, never the merchant port (codec.Serve
// refuses any other).
func (a *App) startCodec() error {
	l := a.opts.CodecListener
	if l == nil {
		return nil
	}
	if a.Codec == nil {
		return errors.New("codec listener: no payload key (JANGADA_PAYLOAD_KEY) to serve")
	}
	srv, err := a.Codec.Serve(l, a.opts.CodecUIOrigins...)
	if err != nil {
		return err
	}
	a.servers = append(a.servers, srv)
	return nil
}
