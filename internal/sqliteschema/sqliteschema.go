// Package sqliteschema applies the schema steps of toolwall's SQLite
// files (the session state and the audit store): each file is marked by
// its PRAGMA application_id and versioned by PRAGMA user_version, and a
// step list moves user_version from i to i+1.
package sqliteschema

import (
	"database/sql"
	"fmt"
	"strconv"
)

// Apply runs, in tx, the steps from version from on, marks the file with
// appID and sets user_version to len(steps). The caller checked that the
// file is unmarked or already marked appID, and that from <= len(steps);
// it commits tx. An error names the version migrated from.
func Apply(tx *sql.Tx, appID int, steps [][]string, from int) error {
	if _, err := tx.Exec(`PRAGMA application_id = ` + strconv.Itoa(appID)); err != nil {
		return err
	}
	for _, step := range steps[from:] {
		for _, stmt := range step {
			if _, err := tx.Exec(stmt); err != nil {
				return fmt.Errorf("migrating schema from version %d: %w", from, err)
			}
		}
	}
	_, err := tx.Exec(`PRAGMA user_version = ` + strconv.Itoa(len(steps)))
	return err
}
