package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall/audit/auditweb"
)

// newAuditServe is `toolwall audit serve`: the audit page on loopback. It
// lives here, not in the hook's binary, for net/http and html/template.
func newAuditServe() *cobra.Command {
	var (
		af     auditFlags
		addr   string
		probes bool
	)
	cmd := &cobra.Command{
		Use:   "audit-serve",
		Short: "Serve a local page over the audit store (loopback only, random token in the URL)",
		Long: `Serves decisions over time, the top rules, the sessions with their calls
and the chains that fired, on a loopback address only. The URL printed
carries a random token; requests without it are refused. Ctrl-C stops it.
The canary calls toolwall doctor sends through the hooks (driver
doctor:HOST) are left out unless --probes.
With --store postgres it shows the audit log a fleet of servers writes in
PostgreSQL (toolwall serve --store postgres).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a, err := af.open(cmd.Context())
			if err != nil {
				return err
			}
			defer a.Close()
			ln, err := auditweb.Listen(addr)
			if err != nil {
				return err
			}
			srv := auditweb.New(a)
			srv.Probes = probes
			fmt.Fprintln(cmd.OutOrStdout(), "toolwall audit page:", srv.URL(ln))
			hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
			go func() {
				<-cmd.Context().Done()
				ctx, cancel := context.WithTimeout(context.Background(), time.Second)
				defer cancel()
				hs.Shutdown(ctx)
			}()
			if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		},
	}
	af.add(cmd)
	cmd.Flags().BoolVar(&probes, "probes", false, "show the canary calls toolwall doctor sent through the hooks too")
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:0", "loopback address to listen on (port 0: any free port)")
	return cmd
}
