package nbformat_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"log"

	"github.com/nbdialog/ipynb/nbformat"
)

// MarshalTo streams a notebook into any writer, here a hash: an unedited
// notebook is written from the bytes read, so it hashes like the file.
func ExampleMarshalOptions_MarshalTo() {
	data := []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}` + "\n")
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		log.Fatal(err)
	}
	h := sha256.New()
	if err := (nbformat.MarshalOptions{}).MarshalTo(h, nb); err != nil {
		log.Fatal(err)
	}
	want := sha256.Sum256(data)
	fmt.Println(bytes.Equal(h.Sum(nil), want[:]))
	// Output: true
}
