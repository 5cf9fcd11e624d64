// Package money holds Jangada's monetary quantities as exact integers.
//
// Payments must reconcile to the centavo, so amounts never pass through
// float64: JSON numbers are parsed digit by digit and rejected when they
// carry more precision than the type can hold, instead of being rounded
// silently.
package money
