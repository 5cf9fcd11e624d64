// Package pixkey validates and canonicalizes Pix keys (chaves Pix). The
// DICT directory matches keys byte for byte, so a key typed as
// "(11) 98765-4321" must be turned into "+5511987654321" before it is
// stored or sent, and a key with a bad check digit should be refused here
// rather than bounced by the provider.
package pixkey
