package postgrestest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvDSN names the environment variable holding the test database's
// connection string.
const EnvDSN = "TOOLWALL_TEST_POSTGRES"

// DSN returns the test database's connection string, or skips t when
// $TOOLWALL_TEST_POSTGRES is unset.
func DSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(EnvDSN)
	if dsn == "" {
		t.Skipf("no PostgreSQL for this test: set %s to a connection string (for example postgres://toolwall@127.0.0.1:55432/postgres); .ci/run starts one", EnvDSN)
	}
	return dsn
}

// Schema returns a new schema name, unique to this call, and drops that
// schema with everything in it when t ends. The schema itself is left for
// the code under test to create.
func Schema(t testing.TB, dsn string) string {
	t.Helper()
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "tw_test_" + hex.EncodeToString(b[:])
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Errorf("postgrestest: dropping schema %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+pgx.Identifier{name}.Sanitize()+` CASCADE`); err != nil {
			t.Errorf("postgrestest: dropping schema %s: %v", name, err)
		}
	})
	return name
}
