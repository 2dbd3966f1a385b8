package pipeline

import (
	"context"
	"maps"
)

// Rename returns a renaming layer, named "rename": a call whose tool name
// is a key of aliases runs as the tool the value names (the name the
// registry executes). Names are exact and case-sensitive; one step only
// (an alias of an alias is not followed). The map is copied.
func Rename(aliases map[string]string) Middleware {
	aliases = maps.Clone(aliases)
	return Middleware{Name: "rename", Kind: KindRename, Wrap: func(next Tool) Tool {
		return ToolFunc(func(ctx context.Context, req *Request) (*Result, error) {
			if to, ok := aliases[req.Call.Tool]; ok {
				r := *req
				r.Call.Tool = to
				req = &r
			}
			return next.Execute(ctx, req)
		})
	}}
}
