package convert_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nbdialog/ipynb/dialog"
)

// A version 3 notebook's kernelspec and language_info are free objects:
// a merge writes them as the sides wrote them, without the members
// version 4 requires of them (display_name, name) added as empty.
func TestMergeV3MetadataWithoutRequiredMembers(t *testing.T) {
	t.Parallel()
	nb := func(meta string) []byte {
		return []byte(`{"metadata": {"name": ""` + meta + `}, "nbformat": 3, "nbformat_minor": 0,
 "worksheets": [{"metadata": {}, "cells": [{"cell_type": "markdown", "metadata": {}, "source": ["hi"]}]}]}`)
	}
	for _, c := range []struct {
		name               string
		base, ours, theirs string
		want               map[string]any
	}{
		{"theirs adds a kernelspec without name", "", "", `, "kernelspec": {"display_name": "t6"}`,
			map[string]any{"name": "", "kernelspec": map[string]any{"display_name": "t6"}}},
		{"ours adds a language_info without name, theirs a kernelspec without display_name", "",
			`, "language_info": {"version": "3"}`, `, "kernelspec": {"name": "python3"}`,
			map[string]any{"name": "", "kernelspec": map[string]any{"name": "python3"}, "language_info": map[string]any{"version": "3"}}},
		{"an empty name written is kept", "", "", `, "kernelspec": {"display_name": "t6", "name": ""}`,
			map[string]any{"name": "", "kernelspec": map[string]any{"display_name": "t6", "name": ""}}},
		{"theirs changes display_name, name absent everywhere", `, "kernelspec": {"display_name": "a"}`,
			`, "kernelspec": {"display_name": "a"}, "x": 1`, `, "kernelspec": {"display_name": "b"}`,
			map[string]any{"name": "", "x": 1.0, "kernelspec": map[string]any{"display_name": "b"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := merge(nb(c.base), nb(c.ours), nb(c.theirs), dialog.MergeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Metadata map[string]any `json:"metadata"`
			}
			if err := json.Unmarshal(res.Data, &got); err != nil {
				t.Fatalf("%v\n%s", err, res.Data)
			}
			if d := cmp.Diff(c.want, got.Metadata); d != "" {
				t.Errorf("metadata (-want +got):\n%s\n%s", d, res.Data)
			}
		})
	}
}
