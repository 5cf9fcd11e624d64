package brcode

// CRC16 is the CRC-16/CCITT-FALSE checksum (polynomial 0x1021, initial
// value 0xFFFF, no reflection, no final XOR) that the BR Code standard
// requires in field 63.
func CRC16(data []byte) uint16 {
	crc := uint16(0xFFFF)
	for _, b := range data {
		crc ^= uint16(b) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}
