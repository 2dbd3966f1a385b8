//go:build !linux

package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newResident is the resident command where there is none: toolwall-hook
// runs the toolwall binary for every call outside Linux.
func newResident() *cobra.Command {
	return &cobra.Command{
		Use:    "resident",
		Short:  "Serve toolwall-hook's calls from a resident process (Linux only)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			return errors.New("a resident process is used on Linux only")
		},
	}
}

// residentStatus says there is no resident outside Linux.
func residentStatus() string {
	return "resident: none on this system (toolwall-hook runs toolwall hook for every call)"
}
