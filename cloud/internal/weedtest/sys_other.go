//go:build !linux

package weedtest

import "syscall"

func sysProcAttr() *syscall.SysProcAttr { return nil }
