package postgres

import "strings"

// queries are the store's statements with the schema filled in.
type queries struct {
	turn, advance, touch               string
	appendRecord, capRecords, history  string
	refuse, capRefusals, countRefusals string
	refusals                           string
	unstage, stage, capStaged, commit  string
	noteRisk, capRisk, risk            string
	// The batch statements (batch.go): arrays in, one statement each.
	histories, touchMany, lockMany        string
	unstageMany, stageMany, capStagedMany string
	commitMany, capRecordsMany            string
	prune                                 []string
	notePrune, lastPrune                  string
}

// prefixed returns the comma-separated column list cols with each name
// prefixed by p ("m.").
func prefixed(p, cols string) string {
	names := strings.Split(cols, ", ")
	for i := range names {
		names[i] = p + names[i]
	}
	return strings.Join(names, ", ")
}

// newQueries returns the statements for the quoted schema name.
func newQueries(schema string) queries {
	s := func(q string) string { return strings.ReplaceAll(q, "S.", schema+".") }
	const touch = `INSERT INTO S.sessions AS t (id, turn, seen) VALUES ($1, 0, $2)
		ON CONFLICT (id) DO UPDATE SET seen = excluded.seen`
	const cols = `effect_tags, effect_paths, effect_details, rules`
	return queries{
		turn: s(`SELECT turn FROM S.sessions WHERE id = $1`),
		advance: s(`INSERT INTO S.sessions AS t (id, turn, seen) VALUES ($1, 1, $2)
			ON CONFLICT (id) DO UPDATE SET turn = t.turn + 1, seen = excluded.seen RETURNING turn`),
		touch: s(touch),
		// The session row is created or touched first, in the same
		// statement; its row lock orders concurrent writes to a session.
		appendRecord: s(`WITH s AS (` + touch + ` RETURNING turn)
			INSERT INTO S.records (session, turn, at, success, tool, summary, input, ` + cols + `)
			SELECT $1, s.turn, $3::bigint, $4::boolean, $5::bytea, $6::bytea, $7::bytea, $8::bytea[], $9::bytea[], $10::bytea[], $11::bytea[] FROM s`),
		capRecords: s(`DELETE FROM S.records WHERE session = $1 AND seq <=
			(SELECT seq FROM S.records WHERE session = $1 ORDER BY seq DESC OFFSET $2 LIMIT 1)`),
		history: s(`SELECT turn, at, success, tool, summary, input, ` + cols + ` FROM S.records
			WHERE session = $1 AND turn > COALESCE((SELECT turn FROM S.sessions WHERE id = $1), 0) - $2
			ORDER BY seq DESC LIMIT $3`),
		refuse: s(`WITH s AS (` + touch + ` RETURNING turn)
			INSERT INTO S.refusals (session, key, turn, at) SELECT $1, $3::bytea, s.turn, $2::bigint FROM s`),
		capRefusals: s(`DELETE FROM S.refusals WHERE session = $1 AND seq <=
			(SELECT seq FROM S.refusals WHERE session = $1 ORDER BY seq DESC OFFSET $2 LIMIT 1)`),
		countRefusals: s(`SELECT count(*) FROM S.refusals WHERE session = $1 AND key = $2`),
		refusals: s(`SELECT count(*) FROM
			(SELECT key, turn FROM S.refusals WHERE session = $1 ORDER BY seq DESC LIMIT $3) r
			WHERE key = $4 AND turn > COALESCE((SELECT turn FROM S.sessions WHERE id = $1), 0) - $2`),
		unstage: s(`DELETE FROM S.staged WHERE session = $1 AND key = $2`),
		stage: s(`INSERT INTO S.staged (session, key, at, tool, summary, input, ` + cols + `)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`),
		capStaged: s(`DELETE FROM S.staged WHERE session = $1 AND seq <=
			(SELECT seq FROM S.staged WHERE session = $1 ORDER BY seq DESC OFFSET $2 LIMIT 1)`),
		// Moves the newest record staged under the key into the history,
		// in the session's current turn; inserts nothing when none is.
		commit: s(`WITH m AS (
				DELETE FROM S.staged WHERE seq =
					(SELECT seq FROM S.staged WHERE session = $1 AND key = $2 ORDER BY seq DESC LIMIT 1)
				RETURNING at, tool, summary, input, ` + cols + `
			), s AS (
				UPDATE S.sessions SET seen = $4 WHERE id = $1 AND EXISTS (SELECT 1 FROM m) RETURNING turn
			)
			INSERT INTO S.records (session, turn, at, success, tool, summary, input, ` + cols + `)
			SELECT $1, s.turn, m.at, $3::boolean, m.tool, m.summary, m.input, m.effect_tags, m.effect_paths, m.effect_details, m.rules
			FROM m, s`),
		noteRisk: s(`WITH s AS (` + touch + ` RETURNING turn)
			INSERT INTO S.risk (session, turn, at, points, setlevel, caller, why)
			SELECT $1, s.turn, $3::bigint, $4::integer, $5::boolean, $6::bytea, $7::bytea FROM s`),
		capRisk: s(`DELETE FROM S.risk WHERE session = $1 AND seq <=
			(SELECT seq FROM S.risk WHERE session = $1 ORDER BY seq DESC OFFSET $2 LIMIT 1)`),
		// One row per event, or one row of NULLs for a session without
		// events; every row carries the current turn.
		risk: s(`SELECT COALESCE((SELECT turn FROM S.sessions WHERE id = $1), 0), r.turn, r.at, r.points, r.setlevel, r.caller, r.why
			FROM (SELECT 1) one LEFT JOIN S.risk r ON r.session = $1 ORDER BY r.seq`),
		// One row per record of each session's window, oldest first,
		// tagged with the 1-based position of its session in $1.
		histories: s(`SELECT u.ord, r.turn, r.at, r.success, r.tool, r.summary, r.input, r.effect_tags, r.effect_paths, r.effect_details, r.rules
			FROM unnest($1::bytea[]) WITH ORDINALITY AS u(id, ord)
			CROSS JOIN LATERAL (
				SELECT seq, turn, at, success, tool, summary, input, ` + cols + ` FROM S.records
				WHERE session = u.id AND turn > COALESCE((SELECT turn FROM S.sessions WHERE id = u.id), 0) - $2
				ORDER BY seq DESC LIMIT $3) r
			ORDER BY u.ord, r.seq`),
		// Creates or touches every session of $1, locking the rows in
		// the order of their ids.
		touchMany: s(`INSERT INTO S.sessions AS t (id, turn, seen)
			SELECT id, 0, $2::bigint FROM (SELECT DISTINCT id FROM unnest($1::bytea[]) id ORDER BY id) d
			ON CONFLICT (id) DO UPDATE SET seen = excluded.seen`),
		lockMany: s(`SELECT id FROM S.sessions WHERE id = ANY($1::bytea[]) ORDER BY id FOR UPDATE`),
		// The batch deletes name their rows by seq (= ANY of an array
		// built by index lookups per session), so they never scan a
		// whole table, whatever the planner guesses of an unnest.
		unstageMany: s(`DELETE FROM S.staged WHERE seq = ANY(ARRAY(
				SELECT st.seq FROM unnest($1::bytea[], $2::bytea[]) AS u(id, key)
				CROSS JOIN LATERAL (SELECT seq FROM S.staged WHERE session = u.id AND key = u.key) st))`),
		// A record's effects and rules are the slices of the flattened
		// arrays its offsets name (NULL when it has none).
		stageMany: s(`INSERT INTO S.staged (session, key, at, tool, summary, input, ` + cols + `)
			SELECT u.id, u.key, u.at, u.tool, u.summary, u.input,
				CASE WHEN u.ne = 0 THEN NULL ELSE ($7::bytea[])[u.eo + 1 : u.eo + u.ne] END,
				CASE WHEN u.ne = 0 THEN NULL ELSE ($8::bytea[])[u.eo + 1 : u.eo + u.ne] END,
				CASE WHEN u.ne = 0 THEN NULL ELSE ($9::bytea[])[u.eo + 1 : u.eo + u.ne] END,
				CASE WHEN u.nr = 0 THEN NULL ELSE ($10::bytea[])[u.ro + 1 : u.ro + u.nr] END
			FROM unnest($1::bytea[], $2::bytea[], $3::bigint[], $4::bytea[], $5::bytea[], $6::bytea[], $11::integer[], $12::integer[], $13::integer[], $14::integer[])
				WITH ORDINALITY AS u(id, key, at, tool, summary, input, eo, ne, ro, nr, ord)
			ORDER BY u.ord`),
		capStagedMany: s(`DELETE FROM S.staged WHERE seq = ANY(ARRAY(
				SELECT x.seq FROM (SELECT DISTINCT id FROM unnest($1::bytea[]) id) d
				CROSS JOIN LATERAL (SELECT seq FROM S.staged WHERE session = d.id ORDER BY seq DESC OFFSET $2) x))`),
		// commit for every (session, key, success) of the arrays: moves
		// the newest record staged under each key into the history, in
		// the session's current turn and in the order of the arrays, and
		// returns the 1-based positions of the keys that had one.
		commitMany: s(`WITH u AS (
				SELECT * FROM unnest($1::bytea[], $2::bytea[], $3::boolean[]) WITH ORDINALITY AS u(id, key, success, ord)
			), p AS (
				SELECT u.ord, u.success,
					(SELECT seq FROM S.staged WHERE session = u.id AND key = u.key ORDER BY seq DESC LIMIT 1) AS seq
				FROM u
			), m AS (
				DELETE FROM S.staged WHERE seq = ANY(ARRAY(SELECT seq FROM p WHERE seq IS NOT NULL))
				RETURNING seq, session, at, tool, summary, input, ` + cols + `
			), mp AS (
				SELECT DISTINCT ON (m.seq) p.ord, p.success, m.* FROM m JOIN p ON p.seq = m.seq ORDER BY m.seq, p.ord
			), t AS (
				UPDATE S.sessions SET seen = $4 WHERE id = ANY(ARRAY(SELECT session FROM m)) RETURNING id, turn
			), i AS (
				INSERT INTO S.records (session, turn, at, success, tool, summary, input, ` + cols + `)
				SELECT mp.session, t.turn, mp.at, mp.success, mp.tool, mp.summary, mp.input, ` + prefixed("mp.", cols) + `
				FROM mp JOIN t ON t.id = mp.session ORDER BY mp.ord
			)
			SELECT mp.ord FROM mp JOIN t ON t.id = mp.session`),
		capRecordsMany: s(`DELETE FROM S.records WHERE seq = ANY(ARRAY(
				SELECT x.seq FROM (SELECT DISTINCT id FROM unnest($1::bytea[]) id) d
				CROSS JOIN LATERAL (SELECT seq FROM S.records WHERE session = d.id ORDER BY seq DESC OFFSET $2) x))`),
		prune: []string{
			s(`DELETE FROM S.records WHERE session IN (SELECT id FROM S.sessions WHERE seen < $1)`),
			s(`DELETE FROM S.refusals WHERE session IN (SELECT id FROM S.sessions WHERE seen < $1)`),
			s(`DELETE FROM S.staged WHERE session IN (SELECT id FROM S.sessions WHERE seen < $1)`),
			s(`DELETE FROM S.risk WHERE session IN (SELECT id FROM S.sessions WHERE seen < $1)`),
			s(`DELETE FROM S.sessions WHERE seen < $1`),
		},
		notePrune: s(`INSERT INTO S.meta (k, v) VALUES ('pruned', $1) ON CONFLICT (k) DO UPDATE SET v = excluded.v`),
		lastPrune: s(`SELECT v FROM S.meta WHERE k = 'pruned'`),
	}
}
