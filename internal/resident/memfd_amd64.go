//go:build linux

package resident

// sysMemfdCreate is memfd_create's number.
const sysMemfdCreate = 319
