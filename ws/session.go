package ws

import (
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// writeWait bounds each write to a client.
const writeWait = 10 * time.Second

var (
	errHubClosed     = errors.New("websocket hub is closed")
	errSessionClosed = errors.New("websocket session is closed")
)

// session is one upgraded connection's transport: its read loop, the
// frames queued for the client and their writer, and the protocol pings.
// It does what melody's Session did, with the same semantics (at most
// SendBuffer frames wait, plus the one being written; a close frame is
// written after the frames queued before it, then the connection ends),
// at a fraction of an idle connection's cost: melody gives every
// connection a write goroutine for its whole life (a stack of 4 KiB or
// more), a ping ticker, and a send channel allocated at full size
// (SendBuffer × 40 bytes) — about 7 KB of each idle connection, which put
// the gateway over 1.2× a bare WebSocket server. Here a writer goroutine
// runs only while frames wait, the queue holds memory only while it is
// not empty, and pings ride a timer.
type session struct {
	h  *Hub
	ws *websocket.Conn
	// Request is the upgrade request.
	Request *http.Request

	mu      sync.Mutex
	queue   []frame // frames waiting for the writer; nil when none
	writing bool    // a writer goroutine is draining queue
	closed  bool    // the connection is closed: nothing more is written
	ping    *time.Timer
}

// frame is one queued message: its type and payload.
type frame struct {
	kind int
	data []byte
}

// serve upgrades the request and runs the connection until it ends: the
// read loop runs on the request's goroutine (the only goroutine an idle
// connection has), dispatching the client's frames in order.
func (h *Hub) serve(w http.ResponseWriter, r *http.Request) error {
	if h.isClosed() {
		return errHubClosed
	}
	ws, err := h.up.Upgrade(w, r, w.Header())
	if err != nil {
		return err
	}
	s := &session{h: h, ws: ws, Request: r}
	s.mu.Lock()
	s.ping = time.AfterFunc(h.opts.PingPeriod, s.sendPing)
	s.mu.Unlock()
	if h.onConnect(s) {
		s.readLoop()
	}
	s.shut()
	h.onDisconnect(s)
	return nil
}

// readLoop reads until the connection fails or closes. Protocol pings
// find dead TCP peers (the JSON heartbeat of the specification is the
// hub's own, conn.beat): a client that answers none of them is dropped
// PingPeriod+PongWait after its last pong (or after connecting).
func (s *session) readLoop() {
	wait := s.h.opts.PingPeriod + s.h.opts.PongWait
	s.ws.SetReadLimit(MaxFrame) // larger frames: gorilla closes with 1009
	s.ws.SetReadDeadline(time.Now().Add(wait))
	s.ws.SetPongHandler(func(string) error {
		s.ws.SetReadDeadline(time.Now().Add(wait))
		return nil
	})
	for {
		t, msg, err := s.ws.ReadMessage()
		if err != nil {
			return
		}
		switch t {
		case websocket.TextMessage:
			s.h.onMessage(s, msg)
		case websocket.BinaryMessage:
			s.h.onBinary(s)
		}
	}
}

// Write queues a text frame for the client.
func (s *session) Write(msg []byte) error {
	return s.enqueue(frame{kind: websocket.TextMessage, data: msg})
}

// CloseWithMsg queues a close frame (msg is its payload, see
// websocket.FormatCloseMessage) after the frames already queued; the
// connection ends once it is written.
func (s *session) CloseWithMsg(msg []byte) error {
	return s.enqueue(frame{kind: websocket.CloseMessage, data: msg})
}

// enqueue queues f and starts a writer if none runs. A full queue means
// the client does not keep up: it is cut off (see tooSlow).
func (s *session) enqueue(f frame) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return errSessionClosed
	}
	if len(s.queue) >= s.h.opts.SendBuffer {
		s.mu.Unlock()
		s.tooSlow()
		return nil
	}
	s.queue = append(s.queue, f)
	start := !s.writing
	s.writing = true
	s.mu.Unlock()
	if start {
		go s.writeQueued()
	}
	return nil
}

// writeQueued writes the queued frames in order, one at a time (the one
// being written no longer counts against SendBuffer), and returns once
// the queue is empty, dropping it: an idle connection holds neither a
// queue nor a writer.
func (s *session) writeQueued() {
	for {
		s.mu.Lock()
		if s.closed || len(s.queue) == 0 {
			s.queue, s.writing = nil, false
			s.mu.Unlock()
			return
		}
		f := s.queue[0]
		s.queue[0] = frame{} // the payload need not outlive its write
		s.queue = s.queue[1:]
		s.mu.Unlock()
		s.ws.SetWriteDeadline(time.Now().Add(writeWait))
		if err := s.ws.WriteMessage(f.kind, f.data); err != nil || f.kind == websocket.CloseMessage {
			s.shut() // the next turn sees closed and stops
		}
	}
}

// sendPing sends a protocol ping, then schedules the next one PingPeriod
// later. WriteControl may run concurrently with the writer (gorilla
// serializes them); rescheduling after it returns keeps a blocked
// connection from piling up pings.
func (s *session) sendPing() {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return
	}
	s.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWait))
	s.mu.Lock()
	if !s.closed {
		s.ping.Reset(s.h.opts.PingPeriod)
	}
	s.mu.Unlock()
}

// tooSlow cuts off a client whose queue is full: at once (the queue
// cannot even take the close frame, so it is sent as a control frame that
// gets a second), and the client resyncs through REST after reconnecting
// rather than silently losing events.
func (s *session) tooSlow() {
	go func() {
		s.ws.WriteControl(websocket.CloseMessage,
			websocket.FormatCloseMessage(websocket.ClosePolicyViolation, "too slow: events were not read"), time.Now().Add(time.Second))
		s.shut()
	}()
}

// shut closes the connection, once: the read loop then fails and ends,
// the writer stops at its next frame and the pings stop.
func (s *session) shut() {
	s.mu.Lock()
	was := s.closed
	s.closed = true
	s.ping.Stop()
	s.mu.Unlock()
	if !was {
		s.ws.Close()
	}
}
