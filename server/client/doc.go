// Package client is a small Go client of toolwall's HTTP decision server
// (package server): decide on a call or a batch of calls, record that
// they ran, advance a session's turn, read the rules in force, approve
// an ask (with an approver token).
//
// A client may know several replicas: when one cannot be reached (or
// answers 503) a request goes to the next, and the client stays there.
// Decide, DecideBatch, Record and RecordBatch are retried that way;
// Turn and Approve only when the request was never sent (a turn advanced
// twice would age chain memory early). Decide and DecideBatch fail
// closed: with an error they also return a deny for every call, so a
// caller that looks only at the decisions still refuses the calls.
package client
