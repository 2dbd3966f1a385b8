package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolwall/toolwall/server"
	"github.com/toolwall/toolwall/server/api"
	"github.com/toolwall/toolwall/session"
)

// FuzzRequest sends arbitrary bodies to the decoding of every POST
// endpoint: the server never panics, answers 200 only with a well-formed
// body, and answers anything else with a JSON error.
func FuzzRequest(f *testing.F) {
	for _, c := range readCases(f, "requests.jsonl") {
		if c.Method == "" {
			f.Add(c.Path, c.body())
		}
	}
	path := filepath.Join(f.TempDir(), "config.toml")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		f.Fatal(err)
	}
	st := session.NewMemory(session.Options{})
	defer st.Close()
	srv, err := server.New(server.Options{ConfigPath: path, Store: st, MaxBody: 64 << 10})
	if err != nil {
		f.Fatal(err)
	}
	defer srv.Close()
	h := srv.Handler()
	f.Fuzz(func(t *testing.T, path string, body []byte) {
		switch path {
		case api.PathDecide, api.PathDecideBatch, api.PathRecord, api.PathRecordBatch, api.PathTurn, api.PathApprove:
		default:
			path = api.PathDecide
		}
		req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
		req.Host = "127.0.0.1:8765"
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		switch w.Code {
		case http.StatusOK:
			switch path {
			case api.PathDecide:
				var d api.Decision
				if err := json.Unmarshal(w.Body.Bytes(), &d); err != nil || len(d.DecisionID) != 32 || d.Schema != api.Schema {
					t.Fatalf("200 with %s", w.Body.Bytes())
				}
			case api.PathDecideBatch:
				var ds api.Decisions
				var in api.Batch
				if err := json.Unmarshal(w.Body.Bytes(), &ds); err != nil || json.Unmarshal(body, &in) != nil || len(ds.Decisions) != len(in.Calls) || len(ds.Decisions) == 0 {
					t.Fatalf("200 with %s for %s", w.Body.Bytes(), body)
				}
			case api.PathApprove:
				t.Fatalf("approved without an approver token: %s", body)
			}
		case http.StatusForbidden:
			if path != api.PathApprove {
				t.Fatalf("403 on %s", path)
			}
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusServiceUnavailable:
			var e api.Error
			if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error.Code == "" {
				t.Fatalf("%d with %s", w.Code, w.Body.Bytes())
			}
		default:
			t.Fatalf("status %d for %q: %s", w.Code, body, w.Body.Bytes())
		}
	})
}

// FuzzDecode: Decode never panics and accepts only one JSON value.
func FuzzDecode(f *testing.F) {
	for _, c := range readCases(f, "requests.jsonl") {
		f.Add(c.body())
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var r api.Record
		if err := server.Decode(bytes.NewReader(body), &r); err == nil && !json.Valid(bytes.TrimSpace(body)) {
			t.Fatalf("Decode accepted %q", body)
		}
	})
}
