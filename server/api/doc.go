// Package api is the versioned JSON schema of toolwall's HTTP decision
// server: the request and response bodies of every endpoint, shared by
// the server (package server) and its Go client (package
// server/client). The OpenAPI document the server serves at
// /v1/openapi.json describes the same shapes.
//
// Version "toolwall.v1": requests may carry "schema": "toolwall.v1" (or
// leave it out); every response carries it. Unknown fields in a request
// are an error, so a misspelled "sesion" is refused instead of silently
// losing chain memory. Fields are only ever added within a version.
package api
