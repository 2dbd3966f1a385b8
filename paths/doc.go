// Package paths holds the small path facts every analyzer shares: making a
// path absolute against a working directory, cleaning it the way the
// kernel resolves it lexically, and asking whether one path lies under
// another. It never touches the file system.
package paths
