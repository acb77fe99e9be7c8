package convert

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

// The snapshots of messages whose metadata is only boolean flags
// (collapsed, scrolled) share one copy per distinct metadata in a
// notebook, which stays as read: changing a message's metadata in place
// changes neither the shared copy nor the other messages, and writing the
// dialog changes only that message's cell. Metadata with anything else
// is not shared (the snapshot has a copy of its own, or compares with the
// cell's typed metadata).
func TestSnapshotsShareFlagMetadata(t *testing.T) {
	t.Parallel()
	for _, data := range []string{
		`{"nbformat": 3, "nbformat_minor": 0, "metadata": {"name": ""}, "worksheets": [{"cells": [
			{"cell_type": "code", "collapsed": false, "input": "a", "language": "python", "metadata": {}, "outputs": []},
			{"cell_type": "code", "collapsed": false, "input": "b", "language": "python", "metadata": {}, "outputs": []},
			{"cell_type": "code", "collapsed": true, "input": "c", "language": "python", "metadata": {}, "outputs": []},
			{"cell_type": "code", "collapsed": false, "input": "d", "language": "python", "metadata": {"tags": ["x"]}, "outputs": []}],
			"metadata": {}}]}`,
		`{"nbformat": 4, "nbformat_minor": 2, "metadata": {}, "cells": [
			{"cell_type": "code", "execution_count": null, "metadata": {"collapsed": false}, "outputs": [], "source": "a"},
			{"cell_type": "code", "execution_count": null, "metadata": {"collapsed": false}, "outputs": [], "source": "b"},
			{"cell_type": "code", "execution_count": null, "metadata": {"collapsed": true, "scrolled": false}, "outputs": [], "source": "c"},
			{"cell_type": "code", "execution_count": null, "metadata": {"collapsed": false, "x": 1}, "outputs": [], "source": "d"}]}`,
	} {
		d, err := Unmarshal([]byte(data), ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		org := d.org
		metaOf := func(i int) map[string]any {
			if s := org.snap(d.Messages[i]); s.meta == nil {
				return s.msg.Meta
			}
			return nil // (not shared: compared with the cell's metadata)
		}
		asRead := func(i int) map[string]any { return org.snap(d.Messages[i]).asRead().Meta }
		same := func(a, b map[string]any) bool {
			return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
		}
		if !same(metaOf(0), metaOf(1)) {
			t.Errorf("the snapshots of two cells of equal flags have copies of their own")
		}
		if same(metaOf(0), metaOf(2)) || same(metaOf(2), metaOf(3)) {
			t.Errorf("snapshots of different metadata share a copy")
		}
		for i, m := range d.Messages {
			if !jsonvalue.Equal(m.Meta, asRead(i)) {
				t.Errorf("message %d: snapshot metadata %v, the message's %v", i, asRead(i), m.Meta)
			}
			if same(m.Meta, metaOf(i)) {
				t.Errorf("message %d shares its metadata with its snapshot", i)
			}
		}
		d.Messages[0].Meta["collapsed"] = true
		if metaOf(0)["collapsed"] != false || metaOf(1)["collapsed"] != false || d.Messages[1].Meta["collapsed"] != false {
			t.Fatalf("changing a message's metadata changed the snapshots or another message")
		}
		out, err := Marshal(d, WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Cells []struct {
				Metadata map[string]any `json:"metadata"`
			} `json:"cells"`
		}
		if err := json.Unmarshal(out, &doc); err != nil || len(doc.Cells) != 4 {
			t.Fatalf("written: %v\n%s", err, out)
		}
		for i, want := range []bool{true, false, true, false} {
			if got := doc.Cells[i].Metadata["collapsed"]; got != want {
				t.Errorf("cell %d written collapsed %v, want %v\n%s", i, got, want, out)
			}
		}
		again, err := Unmarshal(out, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < 4; i++ {
			if !jsonvalue.Equal(again.Messages[i].Meta, d.Messages[i].Meta) {
				t.Errorf("message %d: written metadata %v, was %v", i, again.Messages[i].Meta, d.Messages[i].Meta)
			}
		}
	}
}
