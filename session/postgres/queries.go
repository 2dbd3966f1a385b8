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
	prune                              []string
	notePrune, lastPrune               string
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
