package programs

// OpenBuiltinForBench indexes the embedded catalog afresh.
func OpenBuiltinForBench() *Catalog { return index(embedded()) }

// EmbeddedFiles lists the names of the embedded catalog files.
func EmbeddedFiles() []string {
	var out []string
	for _, s := range embedded() {
		out = append(out, s.file)
	}
	return out
}
