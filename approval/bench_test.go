package approval_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/approval"
)

// BenchmarkApprove measures one `toolwall approve` (Approve) of a pending
// ask, in a store holding only that ask and in one of 200 entries (100
// asks, 99 of them granted); the file is put back between approvals.
func BenchmarkApprove(b *testing.B) {
	for _, asks := range []int{1, 100} {
		b.Run(fmt.Sprintf("entries=%d", 2*asks-1), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "approvals.jsonl")
			s := approval.Open(path, approval.Options{})
			ctx := context.Background()
			var last string
			for i := range asks {
				call := toolwall.NewBashCall(fmt.Sprintf("terraform destroy -target=module.m%d", i))
				call.Session, call.Cwd, call.ID = "s", "/home/user/work/infra", fmt.Sprint("toolu_", i)
				last = fmt.Sprintf("01JTW%021d", i)
				if _, err := s.Check(ctx, last, call, toolwall.Verdict{Action: toolwall.Ask}, true); err != nil {
					b.Fatal(err)
				}
				if i < asks-1 {
					if _, err := s.Approve(ctx, last, "toolwall approve"); err != nil {
						b.Fatal(err)
					}
				}
			}
			base, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				b.StopTimer()
				if err := os.WriteFile(path, base, 0o600); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if _, err := s.Approve(ctx, last, "toolwall approve"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
