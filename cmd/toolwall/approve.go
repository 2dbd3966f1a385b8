package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolwall/toolwall/approval"
	"github.com/toolwall/toolwall/audit"
)

// tty is the terminal a person answers on; approve refuses to run
// without one, so an agent's tool call (which has no terminal) cannot
// approve its own asks.
var tty = "/dev/tty"

func newApprove() *cobra.Command {
	var sf storeFlags
	cmd := &cobra.Command{
		Use:   "approve DECISION-ID",
		Short: "Allow an asked call again in its session and directory (a person, at a terminal)",
		Long: `Approves the call toolwall asked about under DECISION-ID (shown in the
ask's reason and by toolwall audit): the same call in the same session and
directory is then allowed without asking, for the rest of the session or
approvals.ttl. A denied call can never be approved.

It asks for confirmation on the terminal (/dev/tty) and refuses to run
without one: an agent's tool call cannot approve for itself. Claude Code
needs no approve: answering yes at its prompt approves.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := args[0]
			st, err := sf.stores()
			if err != nil {
				return err
			}
			ap := st.Approvals()
			if ap == nil {
				return errors.New("approvals have no place (set HOME or --state)")
			}
			term, err := os.OpenFile(tty, os.O_RDWR, 0)
			if err != nil {
				return fmt.Errorf("toolwall approve must be run by a person at a terminal (%v); a tool call cannot approve its own asks", err)
			}
			defer term.Close()
			what := "decision " + id
			if a := st.Audit(); a != nil {
				if r, err := a.Get(cmd.Context(), id); err == nil {
					what = fmt.Sprintf("%s in session %s, directory %s: %s", r.Tool, orDash(r.Session), orDash(r.Cwd), summary(r))
				} else if !errors.Is(err, audit.ErrNotFound) {
					fmt.Fprintln(term, "(the audit store is unavailable:", err, ")")
				}
				a.Close()
			}
			fmt.Fprintf(term, "Allow %s\nagain without asking? [y/N] ", what)
			answer, _ := bufio.NewReader(term).ReadString('\n')
			if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
				return errors.New("not approved")
			}
			g, err := ap.Approve(cmd.Context(), id, "toolwall approve")
			if errors.Is(err, approval.ErrNotPending) {
				return fmt.Errorf("decision %s: %w", id, err)
			}
			if err != nil {
				return err
			}
			until := "for the rest of the session"
			if !g.Expires.IsZero() {
				until = "until " + g.Expires.Local().Format("15:04:05")
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "approved %s %s\n", id, until)
			return err
		},
	}
	sf.add(cmd)
	return cmd
}
