package convert

// Options with version 2 and 3 notebooks read through their upgrade, made
// at once (the way they were read before readV3), for the external tests
// that compare the two ways.
func ViaUpgrade(o Options) Options {
	o.viaUpgrade = true
	return o
}
