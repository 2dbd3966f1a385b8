package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/audit/audittest"
	"github.com/toolwall/toolwall/audit/postgres"
	"github.com/toolwall/toolwall/session/postgres/postgrestest"
)

// benchRecord is a server's record of an everyday allowed call.
func benchRecord(id string) audit.Record {
	return audit.Record{ID: id, At: audittest.Epoch, Driver: "server", Session: "0123456789abcdef/s1", Tool: "Bash",
		Input:   json.RawMessage(`{"command":"go test ./... 2>&1 | tail -20"}`),
		Verdict: toolwall.Verdict{Action: toolwall.Allow, Commands: []string{"go test ./...", "tail -20"}}, Elapsed: 40 * time.Microsecond}
}

// BenchmarkRecord measures writing audit records to PostgreSQL one per
// statement (Record) and a batch of 100 per statement (RecordMany), per
// record, from parallel goroutines (as a server's requests).
func BenchmarkRecord(b *testing.B) {
	dsn := postgrestest.DSN(b)
	st, err := postgres.Open(context.Background(), dsn, postgres.Options{Schema: postgrestest.Schema(b, dsn)})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	for _, n := range []int{1, 100} {
		b.Run(fmt.Sprintf("batch-%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetParallelism(4)
			b.RunParallel(func(pb *testing.PB) {
				rs := make([]audit.Record, n)
				for pb.Next() {
					for i := range rs {
						rs[i] = benchRecord(audit.NewID())
					}
					if err := st.RecordMany(context.Background(), rs); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/record")
		})
	}
}
