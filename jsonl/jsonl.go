package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// MaxLine bounds one line (16 MiB). Append refuses a longer one; a reader
// skips it.
const MaxLine = 16 << 20

// ErrLineTooLong is returned by Append for a line over MaxLine or holding
// a newline.
var ErrLineTooLong = errors.New("jsonl: line too long or holds a newline")

// File is a JSON Lines file at Path. The zero value is not usable; a File
// holds no open descriptor between calls and is safe for concurrent use
// by goroutines and processes.
type File struct {
	// Path is the file. Its directory is created (mode 0700) on the first
	// Append; the file is created with mode 0600.
	Path string
}

// Append writes line followed by a newline in one write. line must not
// hold a newline.
func (f *File) Append(line []byte) error {
	if len(line) > MaxLine || bytes.IndexByte(line, '\n') >= 0 {
		return ErrLineTooLong
	}
	buf := make([]byte, len(line)+1)
	copy(buf, line)
	buf[len(line)] = '\n'
	for try := 0; ; try++ {
		fd, err := os.OpenFile(f.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if errors.Is(err, fs.ErrNotExist) && try == 0 {
			if err := os.MkdirAll(filepath.Dir(f.Path), 0o700); err != nil {
				return fmt.Errorf("jsonl: %w", err)
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("jsonl: %w", err)
		}
		if err := lock(fd, false); err != nil {
			fd.Close()
			return fmt.Errorf("jsonl: locking %s: %w", f.Path, err)
		}
		// A Rewrite may have replaced the file while we waited for the
		// lock: write to the one at the path.
		if !current(fd, f.Path) && try < 8 {
			fd.Close()
			continue
		}
		_, err = fd.Write(buf)
		if cerr := fd.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("jsonl: appending to %s: %w", f.Path, err)
		}
		return nil
	}
}

// current reports whether fd is still the file at path.
func current(fd *os.File, path string) bool {
	a, err1 := fd.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// open opens the file for reading and writing under a lock, retrying
// when a Rewrite replaced it meanwhile. A missing file is (nil, nil).
func (f *File) open(exclusive bool) (*os.File, error) {
	for try := 0; ; try++ {
		fd, err := os.OpenFile(f.Path, os.O_RDWR, 0)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("jsonl: %w", err)
		}
		if err := lock(fd, exclusive); err != nil {
			fd.Close()
			return nil, fmt.Errorf("jsonl: locking %s: %w", f.Path, err)
		}
		if current(fd, f.Path) || try >= 8 {
			return fd, nil
		}
		fd.Close()
	}
}

// scan calls fn for each complete line of r. A final line without its
// newline (left by a writer that died mid-write) is skipped, as are lines
// over MaxLine and empty lines.
func scan(r io.Reader, fn func(line []byte) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadBytes('\n')
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("jsonl: %w", err)
		}
		if len(line) > 1 && len(line) <= MaxLine+1 {
			if err := fn(line[:len(line)-1]); err != nil {
				return err
			}
		}
	}
}

// Read calls fn for every complete line, oldest first, under a shared
// lock (appends wait). A missing file has no lines. fn must not retain
// line; an error from fn stops the scan and is returned.
func (f *File) Read(fn func(line []byte) error) error {
	fd, err := f.open(false)
	if fd == nil || err != nil {
		return err
	}
	defer fd.Close()
	return scan(fd, fn)
}

// Rewrite keeps the lines for which keep returns true and drops the
// others, under an exclusive lock, by writing a new file beside the old
// one and renaming it into place (a crash leaves either file whole). It
// returns how many lines were dropped; nothing is written when none was.
func (f *File) Rewrite(keep func(line []byte) bool) (int, error) {
	fd, err := f.open(true)
	if fd == nil || err != nil {
		return 0, err
	}
	defer fd.Close()
	var kept bytes.Buffer
	dropped := 0
	if err := scan(fd, func(line []byte) error {
		if keep(line) {
			kept.Write(line)
			kept.WriteByte('\n')
		} else {
			dropped++
		}
		return nil
	}); err != nil {
		return 0, err
	}
	if dropped == 0 {
		return 0, nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.Path), "."+filepath.Base(f.Path)+".*")
	if err != nil {
		return 0, fmt.Errorf("jsonl: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(kept.Bytes()); err != nil {
		tmp.Close()
		return 0, fmt.Errorf("jsonl: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return 0, fmt.Errorf("jsonl: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return 0, fmt.Errorf("jsonl: %w", err)
	}
	if err := os.Rename(tmp.Name(), f.Path); err != nil {
		return 0, fmt.Errorf("jsonl: %w", err)
	}
	return dropped, nil
}

// Drain hands every complete line to fn under an exclusive lock and, when
// fn returns nil, empties the file; appends wait meanwhile and land in
// the emptied file. If fn fails the file is left as it was. A missing or
// empty file calls fn with no lines. Lines are only valid during fn.
func (f *File) Drain(fn func(lines [][]byte) error) error {
	fd, err := f.open(true)
	if err != nil {
		return err
	}
	if fd == nil {
		return fn(nil)
	}
	defer fd.Close()
	var lines [][]byte
	if err := scan(fd, func(line []byte) error {
		lines = append(lines, append([]byte(nil), line...))
		return nil
	}); err != nil {
		return err
	}
	if err := fn(lines); err != nil {
		return err
	}
	if len(lines) == 0 {
		return nil
	}
	if err := fd.Truncate(0); err != nil {
		return fmt.Errorf("jsonl: emptying %s: %w", f.Path, err)
	}
	return nil
}

// Size returns the file's size in bytes (0 when it does not exist).
func (f *File) Size() int64 {
	st, err := os.Stat(f.Path)
	if err != nil {
		return 0
	}
	return st.Size()
}
