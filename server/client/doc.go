// Package client is a small Go client of toolwall's HTTP decision server
// (package server): decide on a call, record that it ran, advance a
// session's turn, read the rules in force.
//
// A client may know several replicas: when one cannot be reached (or
// answers 503) a request goes to the next, and the client stays there.
// Decide and Record are retried that way; Turn only when the request was
// never sent (a turn advanced twice would age chain memory early).
// Decide fails closed: with an error it also returns a deny decision, so a
// caller that looks only at the decision still refuses the call.
package client
