package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
)

func newPolicy() *cobra.Command {
	p := &cobra.Command{
		Use:   "policy",
		Short: "Inspect toolwall's configuration",
	}
	var project string
	check := &cobra.Command{
		Use:   "check",
		Short: "Validate the configuration layers and print the effective policy",
		Long: `Reads the system (/etc/toolwall/config.toml), user and project
(<project>/.toolwall.toml) layers, checks them (unknown keys, a project file
that loosens, custom rules whose match / not_match examples fail) and prints
the effective policy for the project. Exit status 1 on any error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig()
			if err != nil {
				return err
			}
			if project == "" {
				project, _ = os.Getwd()
			}
			if project, err = filepath.Abs(project); err != nil {
				return err
			}
			eff, err := cfg.ForProject(project)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "project: %s\n", project)
			return eff.Describe(cmd.OutOrStdout())
		},
	}
	check.Flags().StringVar(&project, "project", "", "project root whose .toolwall.toml is layered on top (default: the current directory)")
	p.AddCommand(check)
	return p
}
