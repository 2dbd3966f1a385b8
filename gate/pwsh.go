package gate

import (
	"errors"
	"fmt"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/pwsh"
	"github.com/toolwall/toolwall/shell"
)

// RulePowerShellParse is the finding of a PowerShell command toolwall
// cannot read: asked about, since toolwall cannot tell what it would run.
const RulePowerShellParse = "pwsh.parse-error"

// readCommand reads a shell call: Bash with the shell reader (read), a
// PowerShell call with the PowerShell reader (package pwsh), into the
// same commands and effects, so that the Bash analyzers judge both.
func (g *Gate) readCommand(call toolwall.Call) (*shell.Script, *toolwall.Finding) {
	if call.Tool != toolwall.ToolPowerShell {
		return g.read(call)
	}
	cmd, ok := call.Field("command")
	if !ok {
		return nil, &toolwall.Finding{
			Analyzer: "gate", Rule: toolwall.RuleMalformed, Category: "input",
			Score: 0.95, Action: toolwall.Deny,
			Reason: `The PowerShell tool call has no string "command" field, so toolwall cannot tell what it would run; it is refused. Send the command as {"command": "..."}.`,
		}
	}
	s, err := pwsh.Read(cmd, pwsh.Options{Cwd: call.Cwd, Home: call.Home, Project: call.Project, Shell: g.shellOpts})
	var lim *pwsh.LimitError
	var syn *pwsh.SyntaxError
	switch {
	case errors.As(err, &lim):
		return nil, &toolwall.Finding{
			Analyzer: "shell", Rule: "shell.limit", Category: "input", Score: 0.95, Action: toolwall.Deny,
			Reason: fmt.Sprintf("The PowerShell command was refused because it is too large or too deeply nested to check (%v). Split it into smaller commands or write it to a script file you can show the user.", err),
		}
	case errors.As(err, &syn):
		return nil, &toolwall.Finding{
			Analyzer: "shell", Rule: RulePowerShellParse, Category: "input", Score: 0.6, Action: toolwall.Ask,
			Reason: fmt.Sprintf("toolwall could not read this PowerShell command (%v), so it cannot tell what it would run; a human must confirm it. Check the quoting, or split it into simpler commands.", syn),
		}
	case err != nil:
		return nil, &toolwall.Finding{
			Analyzer: "shell", Rule: toolwall.RuleInternal, Category: "internal", Score: 0.95, Action: toolwall.Deny,
			Reason: fmt.Sprintf("toolwall could not read the PowerShell command (%v), so it is refused rather than let through unchecked.", err),
		}
	}
	return s, nil
}
