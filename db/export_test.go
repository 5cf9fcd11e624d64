package db

// LockedPart exposes lockedPart to the package's external tests.
var LockedPart = lockedPart
