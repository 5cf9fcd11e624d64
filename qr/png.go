package qr

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"sync"
)

// quiet is the standard quiet zone, in modules, around the code.
const quiet = 4

// PNG filter types (RFC 2083 §6): a row repeating the one above it is all
// zeros under Up, which deflate shrinks to almost nothing.
const (
	filterNone = 0
	filterUp   = 2
)

// pngSignature opens every PNG file.
var pngSignature = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}

// zlibWriters are reused across renders: a deflate writer's tables are
// most of a render's allocation.
var zlibWriters = sync.Pool{New: func() any {
	w, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed)
	return w
}}

// encodePNG writes a size×size module bitmap (1 = black, rows of stride
// bytes, most significant bit first) as a 1-bit grayscale PNG with the quiet
// zone, each module scale×scale pixels. Each module row is rendered once and
// its repeats are filtered Up (zeros), so the image costs one pass over the
// modules and a deflate of mostly zeros.
func encodePNG(bitmap []byte, size, stride, scale int) []byte {
	side := (size + 2*quiet) * scale
	rowBytes := (side + 7) / 8
	raw := make([]byte, 0, side*(rowBytes+1))
	white := bytes.Repeat([]byte{0xff}, rowBytes)
	zeros := make([]byte, rowBytes)
	line := make([]byte, rowBytes)
	emit := func(first []byte) {
		raw = append(raw, filterNone)
		raw = append(raw, first...)
		for range scale - 1 {
			raw = append(raw, filterUp)
			raw = append(raw, zeros...)
		}
	}
	for range quiet {
		emit(white)
	}
	for y := range size {
		copy(line, white)
		row := bitmap[y*stride:]
		for x := range size {
			if row[x/8]&(0x80>>(x%8)) == 0 {
				continue
			}
			// A black module clears scale pixels (0 is black in grayscale).
			for p := (x + quiet) * scale; p < (x+quiet+1)*scale; p++ {
				line[p/8] &^= 0x80 >> (p % 8)
			}
		}
		emit(line)
	}
	for range quiet {
		emit(white)
	}

	var idat bytes.Buffer
	zw := zlibWriters.Get().(*zlib.Writer)
	zw.Reset(&idat)
	zw.Write(raw) // writes to a bytes.Buffer cannot fail
	zw.Close()
	zlibWriters.Put(zw)

	out := make([]byte, 0, len(pngSignature)+3*12+13+idat.Len())
	out = append(out, pngSignature...)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(side))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(side))
	ihdr[8] = 1 // bit depth; colour type 0 (grayscale), deflate, no interlace
	out = chunk(out, "IHDR", ihdr[:])
	out = chunk(out, "IDAT", idat.Bytes())
	return chunk(out, "IEND", nil)
}

// chunk appends one PNG chunk: length, type, data and the CRC of type+data.
func chunk(out []byte, kind string, data []byte) []byte {
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	start := len(out)
	out = append(out, kind...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start:]))
}
