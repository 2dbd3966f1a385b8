// Package postgrestest finds the PostgreSQL database tests run against
// and gives each test a schema of its own.
//
// Tests read the connection string from $TOOLWALL_TEST_POSTGRES (for
// example "postgres://toolwall@127.0.0.1:55432/postgres"); when it is
// unset they skip with a message saying so. .ci/run starts a PostgreSQL
// from Debian's packages and sets it.
package postgrestest
