#!/usr/bin/python3
"""Reference table for AppendPythonFloat: float bits (hex) and json.dumps spelling.
Run from the repository root with Debian python3: scripts/reference/python_floats.py"""
import json,random,struct
random.seed(1)
vals=[0.0,-0.0,1.0,1e16,1e15,1.5e16,2.5e-7,0.00001,0.0001,123.456,1e300,-1e-300,5e-324,1.7976931348623157e308,0.1,1/3,12345678901234567.0,100.0,1e22,9999999999999998.0]
for i in range(3000):
    vals.append(struct.unpack('d',struct.pack('Q',random.getrandbits(64)))[0])
    vals.append(random.random()*10**random.randint(-30,30))
out=[]
for v in vals:
    if v!=v: continue
    out.append('%s %s'%(struct.pack('>d',v).hex(), json.dumps(v)))
open('internal/jsontree/testdata/python-floats.txt','w').write('\n'.join(out)+'\n')
