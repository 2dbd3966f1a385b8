package policy

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxFile is the largest configuration file read (1 MiB); a larger one is
// an error, never read whole.
const MaxFile = 1 << 20

// readFile reads a configuration file: a regular file of at most MaxFile
// bytes, opened without blocking (a FIFO or a device in its place is an
// error, not a hang or a read without end). With noFollow a symbolic link
// at path is an error too: the project layer, which the agent can write,
// may not point toolwall at another file (a link to /dev/zero exhausted
// memory; one to a key file showed pieces of it in the parse error).
// A missing file is an error matching fs.ErrNotExist.
func readFile(path string, noFollow bool) ([]byte, error) {
	f, err := os.OpenFile(path, openFlags(noFollow), 0)
	if errors.Is(err, errLink) {
		return nil, errors.New("is a symbolic link; a project file must be a regular file in the project")
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("is not a regular file (%v)", st.Mode().Type())
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFile {
		return nil, fmt.Errorf("is larger than %d bytes", MaxFile)
	}
	return data, nil
}
