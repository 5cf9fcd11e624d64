// Package oapi is the merchant API's Go client as oapi-codegen generates it
// from the OpenAPI document api builds (*.gen.go, committed; do not edit:
// gendoc cuts oapi-codegen's output into files named for what they hold,
// one per tag of the operations, models.gen.go and client.gen.go). Use it
// through package client, whose transport authenticates, retries and
// unwraps the envelope: each operation's JSON200 is the envelope's data,
// and an error answer is a *client.Error.
package oapi

// gendoc writes api's document (not fetched from a server) in the client's
// view and runs oapi-codegen on it; TestClientIsFresh
// (client/internal/gendoc) fails when the committed client is stale.
//go:generate go run ../internal/gendoc .
