package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/toolwall/toolwall/policy"
)

// docs are the doc comments of package policy's types and of their
// fields, by type name and field name.
type docs struct {
	types  map[string]string
	fields map[string]map[string]string
}

// readDocs parses the package in dir (its non-test files) for the doc
// comments of its types and their fields.
func readDocs(dir string) (docs, error) {
	d := docs{types: map[string]string{}, fields: map[string]map[string]string{}}
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return d, err
	}
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return d, err
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, spec := range g.Specs {
				ts := spec.(*ast.TypeSpec)
				doc := ts.Doc
				if doc == nil && len(g.Specs) == 1 {
					doc = g.Doc
				}
				d.types[ts.Name.Name] = doc.Text()
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				fs := map[string]string{}
				for _, fld := range st.Fields.List {
					text := fld.Doc.Text()
					if text == "" {
						text = fld.Comment.Text()
					}
					for _, n := range fld.Names {
						fs[n.Name] = text
					}
				}
				d.fields[ts.Name.Name] = fs
			}
		}
	}
	return d, nil
}

// configReference is docs/reference/configuration.md: every table and
// key of policy.Config, walked by reflection over its toml tags, each
// with its type and its doc comment read from the source in dir. A key
// without a doc comment, or of a type this does not know how to name,
// is an error, so that a new key cannot reach the reference undocumented.
func configReference(dir string) ([]byte, error) {
	d, err := readDocs(dir)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(generatedNote)
	b.WriteString("# Configuration reference\n\n")
	b.WriteString("Every table and key of toolwall's configuration file, from the\n" +
		"configuration types (package `policy`) and their doc comments. Every\n" +
		"key is optional; an unknown key is an error that names it. The file is\n" +
		"`~/.config/toolwall/config.toml` (or `$XDG_CONFIG_HOME/toolwall/config.toml`,\n" +
		"`$TOOLWALL_CONFIG`, `--config`), over `/etc/toolwall/config.toml`, under a\n" +
		"project's `.toolwall.toml`, which may only tighten. How the layers and\n" +
		"the scores combine is in [configuration](../configuration.md) and\n" +
		"[policy and approvals](../policy-and-approvals.md).\n\n")
	w := &walker{docs: d, out: &b}
	if err := w.table("", reflect.TypeFor[policy.Config](), false); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// walker writes tables; out collects the document.
type walker struct {
	docs docs
	out  *bytes.Buffer
}

var (
	durationType = reflect.TypeFor[policy.Duration]()
	exampleType  = reflect.TypeFor[policy.Example]()
)

// sub is a table nested in the one being written, written after it.
type sub struct {
	path  string
	t     reflect.Type
	array bool
	doc   string
}

// table writes the table at path (the root when path is "") of struct
// type t, then its subtables.
func (w *walker) table(path string, t reflect.Type, array bool) error {
	var rows []string
	var subs []sub
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if !f.IsExported() || name == "" || name == "-" {
			continue
		}
		doc := w.docs.fields[t.Name()][f.Name]
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		full := name
		if path != "" {
			full = path + "." + name
		}
		switch {
		case ft.Kind() == reflect.Struct && ft != durationType && ft != exampleType:
			subs = append(subs, sub{full, ft, false, doc})
			continue
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct && ft.Elem() != exampleType:
			subs = append(subs, sub{full, ft.Elem(), true, doc})
			continue
		}
		if strings.TrimSpace(doc) == "" {
			return fmt.Errorf("%s.%s (key %s) has no doc comment", t.Name(), f.Name, full)
		}
		kind, err := typeName(ft)
		if err != nil {
			return fmt.Errorf("%s.%s (key %s): %v", t.Name(), f.Name, full, err)
		}
		rows = append(rows, fmt.Sprintf("| `%s` | %s | %s |", name, kind, cell(doc)))
	}
	if len(rows) > 0 {
		w.out.WriteString("\n| key | type | meaning |\n|---|---|---|\n")
		w.out.WriteString(strings.Join(rows, "\n") + "\n")
	}
	for _, s := range subs {
		head := "[" + s.path + "]"
		if s.array {
			head = "[" + head + "]"
		}
		fmt.Fprintf(w.out, "\n## `%s`\n\n", head)
		text := s.doc
		if td := w.docs.types[s.t.Name()]; td != "" && !strings.Contains(s.path, ".") {
			text = td
		} else if text == "" {
			text = td
		}
		if strings.TrimSpace(text) == "" {
			return fmt.Errorf("table %s has no doc comment", head)
		}
		w.out.WriteString(markdown(text, 3))
		if err := w.table(s.path, s.t, s.array); err != nil {
			return err
		}
	}
	return nil
}

// typeName names a key's TOML type for the reader.
func typeName(t reflect.Type) (string, error) {
	switch {
	case t == durationType:
		return `duration (` + "`\"30m\"`, `\"168h\"`" + `)`, nil
	case t.Kind() == reflect.String:
		return "string", nil
	case t.Kind() == reflect.Bool:
		return "boolean", nil
	case t.Kind() == reflect.Int:
		return "integer", nil
	case t.Kind() == reflect.Float64:
		return "number", nil
	case t.Kind() == reflect.Slice:
		if t.Elem() == exampleType {
			return "list of examples (a command string, or a table with `tool` and the input's keys)", nil
		}
		e, err := typeName(t.Elem())
		if err != nil {
			return "", err
		}
		return "list of " + e + "s", nil
	}
	return "", fmt.Errorf("no TOML name for Go type %s", t)
}

// markdown is a doc comment as Markdown, its headings at level.
func markdown(text string, level int) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	var p comment.Parser
	pr := comment.Printer{HeadingLevel: level}
	return string(pr.Markdown(p.Parse(text)))
}

// exists reports whether path exists (for the test's messages).
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
