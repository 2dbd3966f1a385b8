package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/toolwall/toolwall/session"
)

// The batch methods serve a driver that decides or records many calls at
// once (the HTTP server's /v1/decide/batch and /v1/record/batch): each
// is one round trip whatever the number of sessions, with a fixed number
// of statements that take their rows as arrays. Sessions are locked in
// the order of their ids, so two batches over the same sessions never
// deadlock, and a write to one session by a single-call method waits for
// the batch as it waits for any other write.

// Histories returns, for each of ids, what History would return for it
// with w, read in one statement: out[i] is the history of ids[i].
func (s *Store) Histories(ctx context.Context, ids []string, w session.Window) ([][]session.Record, error) {
	raw, err := s.checkIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	w = w.WithDefaults()
	rows, err := s.pool.Query(ctx, s.q.histories, raw, w.Turns, w.Calls)
	if err != nil {
		return nil, s.fail("histories", err)
	}
	defer rows.Close()
	out := make([][]session.Record, len(ids))
	for rows.Next() {
		var ord int64
		r, err := scanRecord(rows, &ord)
		if err != nil {
			return nil, s.fail("histories", err)
		}
		if ord < 1 || int(ord) > len(ids) {
			return nil, s.fail("histories", fmt.Errorf("row for session %d of %d", ord, len(ids)))
		}
		out[ord-1] = append(out[ord-1], r)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("histories", err)
	}
	return out, nil
}

// StageMany does what Stage(ids[i], keys[i], recs[i]) does for every i,
// in one round trip and one transaction: all are staged or none. When a
// key repeats within a session the last record staged under it wins, as
// with Stage called in order.
func (s *Store) StageMany(ctx context.Context, ids, keys []string, recs []session.Record) error {
	if len(keys) != len(ids) || len(recs) != len(ids) {
		return fmt.Errorf("%w: %d ids, %d keys, %d records", session.ErrInvalid, len(ids), len(keys), len(recs))
	}
	raw, err := s.checkIDs(ctx, ids)
	if err != nil {
		return err
	}
	// A key staged twice in one batch: keep the last, as Stage would.
	checked := make([]string, len(keys))
	last := map[[2]string]int{}
	for i := range ids {
		k, err := session.CheckKey(keys[i])
		if err != nil {
			return err
		}
		checked[i] = k
		last[[2]string{ids[i], k}] = i
	}
	now := s.now()
	var c columns
	var rawKeys [][]byte
	for i := range ids {
		if last[[2]string{ids[i], checked[i]}] != i {
			continue
		}
		rawKeys = append(rawKeys, []byte(checked[i]))
		c.add(raw[i], session.Normalize(recs[i], time.UnixMicro(now)))
	}
	b := &pgx.Batch{}
	b.Queue(s.q.touchMany, raw, now)
	b.Queue(s.q.unstageMany, c.ids, rawKeys)
	b.Queue(s.q.stageMany, c.ids, rawKeys, c.at, c.tool, c.summary, c.input, c.tags, c.paths, c.details, c.rules, c.effectAt, c.effectN, c.ruleAt, c.ruleN)
	b.Queue(s.q.capStagedMany, raw, session.DefaultStaged)
	return s.batch(ctx, "stage", b, -1, nil)
}

// CommitMany does what Commit(ids[i], keys[i], success[i]) does for
// every i, in one round trip and one transaction, and reports for each
// whether a record was staged under its key. The records enter the
// histories in the order given. A key given twice in one session is
// committed once: the second finds nothing staged, as with Commit called
// in order.
func (s *Store) CommitMany(ctx context.Context, ids, keys []string, success []bool) ([]bool, error) {
	if len(keys) != len(ids) || len(success) != len(ids) {
		return nil, fmt.Errorf("%w: %d ids, %d keys, %d outcomes", session.ErrInvalid, len(ids), len(keys), len(success))
	}
	raw, err := s.checkIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	rawKeys := make([][]byte, len(keys))
	for i, k := range keys {
		if k, err = session.CheckKey(k); err != nil {
			return nil, err
		}
		rawKeys[i] = []byte(k)
	}
	found := make([]bool, len(ids))
	b := &pgx.Batch{}
	b.Queue(s.q.lockMany, raw)
	b.Queue(s.q.commitMany, raw, rawKeys, success, s.now())
	b.Queue(s.q.capRecordsMany, raw, s.opts.Calls)
	err = s.batch(ctx, "commit", b, 1, func(br pgx.BatchResults) error {
		rows, err := br.Query()
		if err != nil {
			return err
		}
		defer rows.Close()
		seen := map[int64]bool{}
		for rows.Next() {
			var ord int64
			if err := rows.Scan(&ord); err != nil {
				return err
			}
			if ord < 1 || int(ord) > len(ids) || seen[ord] {
				return fmt.Errorf("commit of call %d of %d", ord, len(ids))
			}
			seen[ord] = true
			found[ord-1] = true
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return found, nil
}

// checkIDs validates ids and the store before a batch, and returns the
// ids as the bytes stored.
func (s *Store) checkIDs(ctx context.Context, ids []string) ([][]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("%w: an empty batch", session.ErrInvalid)
	}
	if s.closed.Load() {
		return nil, session.ErrClosed
	}
	raw := make([][]byte, len(ids))
	for i, id := range ids {
		if err := session.CheckID(id); err != nil {
			return nil, err
		}
		raw[i] = []byte(id)
	}
	return raw, nil
}

// columns are records as the arrays stageMany takes: one element per
// record, and the effects and rules of all records flattened, each
// record naming where its own start (0-based) and how many it has.
type columns struct {
	ids, tool, summary, input        [][]byte
	at                               []int64
	tags, paths, details, rules      [][]byte
	effectAt, effectN, ruleAt, ruleN []int32
}

// add appends record r of session id.
func (c *columns) add(id []byte, r session.Record) {
	c.ids = append(c.ids, id)
	c.at = append(c.at, r.At.UnixMicro())
	c.tool, c.summary, c.input = append(c.tool, []byte(r.Tool)), append(c.summary, []byte(r.Summary)), append(c.input, nilIfEmpty(r.Input))
	tags, paths, details := effectColumns(r.Effects)
	c.effectAt, c.effectN = append(c.effectAt, int32(len(c.tags))), append(c.effectN, int32(len(tags)))
	c.tags, c.paths, c.details = append(c.tags, tags...), append(c.paths, paths...), append(c.details, details...)
	rules := ruleColumn(r.Rules)
	c.ruleAt, c.ruleN = append(c.ruleAt, int32(len(c.rules))), append(c.ruleN, int32(len(rules)))
	c.rules = append(c.rules, rules...)
}
