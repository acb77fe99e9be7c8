package convert_test

// Tests of the registry of host attributes (conflicts, demotion), of ids before
// 4.5, of Owner, and of concurrent and large reads and writes.

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

func TestRegistryConflicts(t *testing.T) {
	t.Parallel()
	var r convert.Registry // the zero value is ready to use
	if err := r.Register(convert.Descriptor{Attr: "a", Key: "x"}); err != nil {
		t.Fatal(err)
	}
	var ce *convert.Error
	err := r.Register(convert.Descriptor{Attr: "b", Key: "y"}, convert.Descriptor{Attr: "a", Key: "z"})
	if !errors.As(err, &ce) || ce.Op != "descriptor" || ce.What != "attribute" || ce.Existing.Key != "x" || ce.Descriptor.Key != "z" {
		t.Errorf("attribute conflict: %v", err)
	}
	if slices.ContainsFunc(slices.Collect(r.All()), func(d convert.Descriptor) bool { return d.Attr == "b" }) {
		t.Error("a failed Register registered part of its descriptors")
	}
	err = r.Register(convert.Descriptor{Attr: "c", Key: "x"})
	if !errors.As(err, &ce) || ce.Op != "descriptor" || ce.What != "key" || !strings.Contains(err.Error(), `key "x" is already registered`) {
		t.Errorf("key conflict: %v", err)
	}
	if _, err := convert.NewRegistry(convert.Descriptor{Attr: "d", Key: "w"}, convert.Descriptor{Attr: "e", Key: "w"}); err == nil {
		t.Error("a conflict within one call was accepted")
	}
	if _, err := convert.NewRegistry(convert.Descriptor{Attr: "", Key: "w"}); err == nil {
		t.Error("an empty attribute was accepted")
	}
	var attrs []string
	for d := range r.All() {
		attrs = append(attrs, d.Attr)
	}
	if !slices.Equal(attrs, []string{"a"}) {
		t.Errorf("All = %v", attrs)
	}
	// The options' Descriptors are checked so when they are used.
	two := []convert.Descriptor{{Attr: "a", Key: "x"}, {Attr: "b", Key: "x"}}
	data, _ := os.ReadFile(filepath.Join("..", "testdata", "dialog.ipynb"))
	if _, err := convert.Unmarshal(data, convert.ReadOptions{Descriptors: two}); !errors.As(err, &ce) || ce.Op != "descriptor" || ce.What != "key" {
		t.Errorf("ReadOptions with a key declared twice: %v", err)
	}
	f, _ := convert.Unmarshal(data, convert.ReadOptions{})
	if _, err := convert.Marshal(f, convert.WriteOptions{Descriptors: two}); !errors.As(err, &ce) || ce.Op != "descriptor" {
		t.Errorf("WriteOptions with a key declared twice: %v", err)
	}
	if err := f.Save(convert.SaveOptions{Descriptors: []convert.Descriptor{{Key: "x"}}}); err == nil || !strings.Contains(err.Error(), "must not be empty") {
		t.Errorf("SaveOptions with an empty attribute: %v", err)
	}
}

// Demotion writes truthy attributes, omits falsy ones (removing the key
// from Meta too), and refuses attributes nobody declared.
func TestDescriptorDemotion(t *testing.T) {
	t.Parallel()
	reg, _ := convert.NewRegistry(convert.Descriptor{Attr: "star", Key: "app.star"}, convert.Flag("pinned", "pinned"))
	opts := convert.Options{Registry: reg}
	m := &dialog.Message{ID: "m1", Kind: dialog.Note, Meta: map[string]any{"app.star": "stale", "pinned": true, "other": 1},
		Attrs: map[string]any{"star": "", "pinned": 0}}
	c, err := opts.ToCell(m)
	if err != nil {
		t.Fatal(err)
	}
	md := cellMeta(t, c)
	if _, ok := md["app.star"]; ok {
		t.Errorf("falsy attribute written: %v", md)
	}
	if _, ok := md["pinned"]; ok {
		t.Errorf("zero flag written: %v", md)
	}
	if md["other"] != 1 {
		t.Errorf("undeclared metadata lost: %v", md)
	}
	m.Attrs = map[string]any{"unknown": 1}
	if _, err := opts.ToCell(m); err == nil || !strings.Contains(err.Error(), `attribute "unknown" has no descriptor`) {
		t.Errorf("undeclared attribute: %v", err)
	}
}

// Before 4.5, ids made up in memory are not written, even for edited and
// new messages.
func TestPre45IDsNotWritten(t *testing.T) {
	t.Parallel()
	data, _ := os.ReadFile(filepath.Join("..", "testdata", "v4.4.ipynb"))
	d, err := convert.Unmarshal(data, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range d.Messages {
		if len(m.ID) != 8 {
			t.Fatalf("message without an id: %q", m.ID)
		}
	}
	d.Messages[1].Content = "edited"
	d.Add(dialog.Note, "new")
	out, err := convert.Marshal(d, convert.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte(`"id"`)) {
		t.Error("ids written into a 4.4 notebook")
	}
	nb, _ := nbformat.Unmarshal(out)
	if nb.NbformatMinor != 4 || nbformat.Validate(nb) != nil {
		t.Errorf("version %d.%d, %v", nb.Nbformat, nb.NbformatMinor, nbformat.Validate(nb))
	}
}

// Options.Owner sets the saved file's owner (as root; others may only give
// files to themselves).
func TestSaveOwner(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file away")
	}
	dir := t.TempDir()
	d, _, _, _, _ := seedDialog()
	path := filepath.Join(dir, "owned.ipynb")
	if err := convert.WriteFile(d, path, convert.WriteOptions{Owner: &convert.Owner{UID: 65534, GID: 65534}}); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	st := fi.Sys().(*syscall.Stat_t)
	if st.Uid != 65534 || st.Gid != 65534 {
		t.Errorf("owner %d:%d", st.Uid, st.Gid)
	}
	// A later save by root keeps the owner.
	d.Messages[0].Content = "again"
	if err := d.Save(convert.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	fi, _ = os.Stat(path)
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != 65534 {
		t.Errorf("owner lost: %d", st.Uid)
	}
}

// Several goroutines may marshal the same (unchanging) dialog at once.
func TestConcurrentMarshal(t *testing.T) {
	t.Parallel()
	data, _ := os.ReadFile(filepath.Join("..", "testdata", "invalid.ipynb"))
	d, err := convert.Unmarshal(data, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := convert.Marshal(d, convert.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 8)
	for g := 0; g < 8; g++ {
		go func() {
			for i := 0; i < 10; i++ {
				got, err := convert.Marshal(d, convert.WriteOptions{})
				if err != nil || !bytes.Equal(got, want) {
					done <- errors.New("concurrent Marshal differs")
					return
				}
			}
			done <- nil
		}()
	}
	for g := 0; g < 8; g++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// Reading a notebook of many cells without ids is not quadratic.
func TestManyCellsWithoutIDs(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`{"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [`)
	for i := 0; i < 50000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"cell_type": "raw", "metadata": {}, "source": "x"}`)
	}
	b.WriteString("]}")
	d, err := convert.Unmarshal([]byte(b.String()), convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Messages) != 50000 {
		t.Fatalf("%d messages", len(d.Messages))
	}
	out, err := convert.Marshal(d, convert.WriteOptions{})
	if err != nil || string(out) != b.String() {
		t.Errorf("round trip: %v", err)
	}
}
