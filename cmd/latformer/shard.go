// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/latformer/latformer/backend"
	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/experiments/runner"
	"github.com/latformer/latformer/internal/runmeta"
)

// placeFlags are the flags that say where files are or how a run is carried out, not what it computes:
// they stay out of a run's settings (runmeta.Meta), so that shards run from other directories, with
// other worker counts or output files, are shards of one run. The data's content is in the Meta's
// fingerprint instead of its path.
var placeFlags = map[string]bool{"out": true, "resume": true, "force": true, "workers": true, "quiet": true,
	"shard": true, "devices": true, "data": true, "svg": true, "export": true, "cache": true, "reference": true,
	"images": true}

// runMeta describes the run of command fs (parsed) reading the data at dataPaths.
func runMeta(fs *flag.FlagSet, dataPaths []string) (runmeta.Meta, error) {
	m := runmeta.Meta{
		Command: fs.Name(), Code: runmeta.CodeVersion(), Settings: []string{"backend=" + backend.Config()},
	}
	fs.VisitAll(func(f *flag.Flag) {
		if !placeFlags[f.Name] {
			m.Settings = append(m.Settings, f.Name+"="+f.Value.String())
		}
	})
	var err error
	m.Data, err = runmeta.Fingerprint(dataPaths...)
	return m, err
}

// dataPaths returns the paths under the data directory (--data, else the default) that a command
// reads, for the run's data fingerprint; none when there is no data directory (the command then fails
// on its own).
func dataPaths(dataFlag string, rel ...string) []string {
	dir, err := datasets.DataDir(dataFlag)
	if err != nil {
		return nil
	}
	paths := make([]string, len(rel))
	for i, r := range rel {
		paths[i] = filepath.Join(dir, r)
	}
	return paths
}

// gridPaths are the data the synthetic tasks' inputs are drawn from: ARC's training tasks, or none with
// random grids.
func gridPaths(dataFlag string, randomGrids bool) []string {
	if randomGrids {
		return nil
	}
	return dataPaths(dataFlag, "arc/training")
}

// joinAll returns the paths of the named files in dir.
func joinAll(dir string, names []string) []string {
	paths := make([]string, len(names))
	for i, n := range names {
		paths[i] = filepath.Join(dir, n)
	}
	return paths
}

// prepare applies --shard and --devices after fs is parsed, before the command runs its units. With
// --shard the run is that shard: f.sharding, with the run's Meta, which the command passes in its
// experiment's Options. With --devices it runs one child process per device (CUDA_VISIBLE_DEVICES set to
// it) on shard i of N of the same command, each into its own file beside --out, merges them into --out
// and leaves the command to resume --out: it then runs nothing and prints the tables of the whole run.
func (f *runFlags) prepare(fs *flag.FlagSet, data []string) error {
	f.sharding = nil
	if f.shard != "" && len(*f.devices) > 0 {
		return usageError{
			errors.New("--shard and --devices exclude each other (--devices gives each device its shard)"), fs,
		}
	}
	if f.shard != "" {
		sh, err := runner.ParseShard(f.shard)
		if err != nil {
			return usageError{err, fs}
		}
		meta, err := runMeta(fs, data)
		if err != nil {
			return err
		}
		f.sharding = &runner.Sharding{Shard: sh, Meta: meta}
		return nil
	}
	if len(*f.devices) == 0 {
		return nil
	}
	if f.out == "" {
		return usageError{errors.New("--devices needs --out (the merged results file)"), fs}
	}
	if _, err := os.Stat(f.out); err == nil && !f.resume && !f.force {
		return fmt.Errorf("%s already exists: --resume continues it, --force overwrites it, or choose another file",
			f.out)
	}
	outs, err := f.runDevices(fs)
	if err != nil {
		return err
	}
	m, err := runner.Merge(f.out, outs, true, false)
	if err != nil {
		return err
	}
	fmt.Printf("merged %d rows of %d shards into %s\n", m.Rows, len(outs), f.out)
	f.resume, f.force = true, false
	return nil
}

// shardOut is the results file of shard i of n beside out.
func shardOut(out string, i, n int) string {
	ext := filepath.Ext(out)
	return fmt.Sprintf("%s.shard%dof%d%s", strings.TrimSuffix(out, ext), i, n, ext)
}

// runDevices runs shard i of N on device i, for the N devices, in parallel, each process's output
// lines prefixed with its device, and returns the shards' results files.
func (f *runFlags) runDevices(fs *flag.FlagSet) ([]string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	var common []string
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name != "devices" && fl.Name != "out" && fl.Name != "resume" && fl.Name != "force" && fl.Name != "quiet" {
			common = append(common, "--"+fl.Name+"="+fl.Value.String())
		}
	})
	again := "--resume" // a relaunch continues each shard
	if f.force {
		again = "--force"
	}
	n := len(*f.devices)
	outs := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i, dev := range *f.devices {
		outs[i] = shardOut(f.out, i, n)
		args := append([]string{fs.Name()}, common...)
		args = append(args, "--shard", fmt.Sprintf("%d/%d", i, n), "--out", outs[i], again, "--quiet")
		cmd := exec.Command(exe, args...)
		cmd.Env = append(os.Environ(), "CUDA_VISIBLE_DEVICES="+dev)
		fmt.Printf("device %s: latformer %s\n", dev, strings.Join(args, " "))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if errs[i] = runPrefixed(cmd, fmt.Sprintf("[device %s] ", dev)); errs[i] != nil {
				errs[i] = fmt.Errorf("shard %d/%d on device %s: %w", i, n, dev, errs[i])
			}
		}()
	}
	wg.Wait()
	return outs, errors.Join(errs...)
}

// stdoutMu keeps the children's lines whole.
var stdoutMu sync.Mutex

// runPrefixed runs cmd with its stdout and stderr copied line by line to stdout, each line prefixed.
func runPrefixed(cmd *exec.Cmd, prefix string) error {
	r, w := io.Pipe()
	cmd.Stdout, cmd.Stderr = w, w
	done := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			stdoutMu.Lock()
			fmt.Println(prefix + sc.Text())
			stdoutMu.Unlock()
		}
		close(done)
	}()
	err := cmd.Run()
	w.Close()
	<-done
	return err
}
