// Package weedtest starts a SeaweedFS server (`weed mini`) on 127.0.0.1
// for tests that need a real S3-compatible store. The binary is built by
// scripts/seaweedfs.sh into a cache outside the repository; without it
// the tests skip.
package weedtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// EnvBinary overrides where the weed binary is looked for.
const EnvBinary = "QUIVER_WEED"

// The credentials the server is started with; its S3 API refuses
// anonymous requests then, as a real bucket does.
const (
	AccessKey = "quiver-test"
	SecretKey = "quiver-test-secret"
	Region    = "us-east-1"
)

// Binary returns the path of the weed binary, or an error that says how
// to build it.
func Binary() (string, error) {
	if p := os.Getenv(EnvBinary); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("SeaweedFS binary %s=%s: %w", EnvBinary, p, err)
		}
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no home directory to find the SeaweedFS binary in (set %s): %w", EnvBinary, err)
	}
	p := filepath.Join(home, ".cache", "quiver", "weed", "weed")
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("SeaweedFS binary not found at %s: build it with scripts/seaweedfs.sh build (or set %s)", p, EnvBinary)
	}
	return p, nil
}

// Server is a running `weed mini`.
type Server struct {
	Endpoint string // http://127.0.0.1:PORT of the S3 API

	cmd   *exec.Cmd
	dir   string
	log   string
	ports []int
	done  chan struct{}
}

// Start starts `weed mini` from bin with a new data directory below
// tmpDir, every port it listens on chosen free on 127.0.0.1, and waits
// until its S3 API answers (at most timeout).
func Start(bin, tmpDir string, timeout time.Duration) (*Server, error) {
	dir, err := os.MkdirTemp(tmpDir, "quiver-weed.")
	if err != nil {
		return nil, err
	}
	names := []string{
		"master.port", "master.port.grpc", "volume.port", "volume.port.grpc",
		"filer.port", "filer.port.grpc", "s3.port", "s3.port.grpc",
		"admin.port", "admin.port.grpc",
	}
	ports, err := freePorts(len(names))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	args := []string{"mini",
		"-dir=" + dir, "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
		"-master.telemetry=false", // it would report to the internet
		"-webdav=false", "-s3.port.iceberg=0", "-s3.port.lance=0", "-admin.port.legacy=0",
		"-filer.localSocket=" + filepath.Join(dir, "filer.sock"),
		"-s3.localSocket=" + filepath.Join(dir, "s3.sock"),
	}
	for i, n := range names {
		args = append(args, "-"+n+"="+strconv.Itoa(ports[i]))
	}
	s := &Server{
		Endpoint: "http://127.0.0.1:" + strconv.Itoa(ports[6]),
		dir:      dir,
		log:      filepath.Join(dir, "weed.log"),
		ports:    ports,
		done:     make(chan struct{}),
	}
	logf, err := os.Create(s.log)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	defer logf.Close()
	s.cmd = exec.Command(bin, args...)
	s.cmd.Dir = dir
	s.cmd.Stdout, s.cmd.Stderr = logf, logf
	s.cmd.Env = append(os.Environ(), "AWS_ACCESS_KEY_ID="+AccessKey, "AWS_SECRET_ACCESS_KEY="+SecretKey)
	s.cmd.SysProcAttr = sysProcAttr()
	if err := s.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	go func() { s.cmd.Wait(); close(s.done) }()
	if err := s.wait(timeout); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// wait polls the S3 port until it answers HTTP.
func (s *Server) wait(timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	client := &http.Client{Timeout: time.Second}
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.Endpoint+"/", nil)
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-s.done:
			return fmt.Errorf("weed mini exited before its S3 API answered; log:\n%s", s.Log())
		case <-ctx.Done():
			return fmt.Errorf("weed mini's S3 API did not answer on %s within %v; log:\n%s", s.Endpoint, timeout, s.Log())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Log returns the end of the server's output.
func (s *Server) Log() string {
	b, err := os.ReadFile(s.log)
	if err != nil {
		return err.Error()
	}
	if len(b) > 8<<10 {
		b = b[len(b)-8<<10:]
	}
	return string(b)
}

// Stop stops the server (SIGTERM, then SIGKILL after 10 s) and removes its
// data directory and the sockets it leaves in /tmp.
func (s *Server) Stop() error {
	if s.cmd.Process != nil {
		s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			s.cmd.Process.Kill()
			<-s.done
		}
	}
	// weed names its gRPC sockets after their ports, in /tmp.
	for _, p := range s.ports {
		matches, _ := filepath.Glob("/tmp/seaweedfs-*-" + strconv.Itoa(p) + ".sock")
		for _, m := range matches {
			if strings.HasPrefix(filepath.Base(m), "seaweedfs-") {
				os.Remove(m)
			}
		}
	}
	return os.RemoveAll(s.dir)
}

// freePorts returns n distinct ports free on 127.0.0.1 at the time of the
// call, held open together so none is handed out twice.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for len(ports) < n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("finding a free port: %w", err)
		}
		ls = append(ls, l)
		p := l.Addr().(*net.TCPAddr).Port
		if p+10000 > 65535 || p < 10000 {
			// weed derives some ports as port+10000 when not given; keep
			// clear of collisions there too.
			continue
		}
		ports = append(ports, p)
	}
	if len(ports) != n {
		return nil, errors.New("not enough free ports")
	}
	return ports, nil
}
