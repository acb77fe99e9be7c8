package convert

// Options with version 2 and 3 notebooks read through their upgrade, made
// at once (the way they were read before readV3), for the external tests
// that compare the two ways.
func ViaUpgrade(o Options) Options {
	o.viaUpgrade = true
	return o
}

// ReparsingV3 returns o with the worksheets of version 2 and 3 notebooks
// read directly from a parse of their own, not from nbformat's tape.
func ReparsingV3(o Options) Options {
	o.reparseV3 = true
	return o
}
