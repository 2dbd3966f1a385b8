// Package shell is the shell executor (the tool-executor framework's ShellExecutor, seed
// 004's daemon): it runs a command with `bash -c` (or a configured shell)
// after re-checking it with the same gate the hooks use, in the
// executor's own context (user or root). The layers of one call:
//
//  1. resolve the working directory and environment with the tool-executor framework's
//     precedence and env blocklist ([executor.Resolve]);
//  2. judge the command there with the gate ([executor.Boundary]): a
//     Deny, or an Ask without approval, returns exit status 126
//     ([ExitRefused]) and the reason, and the shell never starts;
//  3. write the audit record — before anything runs
//     ("監査ログのエントリーを書き込んだ直後に") — and refuse the
//     command if it cannot be written;
//  4. in transactional mode ([Transaction]) snapshot what the command may
//     change, bounded in size; a snapshot over its bound refuses the
//     command rather than run it unprotected;
//  5. run the shell in a process group of its own, optionally confined
//     by Landlock ([Sandbox]); a timeout or cancellation kills the whole
//     group, and so does the end of the shell (nothing is left running);
//  6. return the envelope: stdout and stderr apart, exit code, truncated
//     flag, duration; roll back a failed transactional run; attach the
//     outcome to the audit record.
package shell
