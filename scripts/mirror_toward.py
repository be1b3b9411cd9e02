#!/usr/bin/env python3
# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
"""List the tasks a lattice-search run leaves unsolved whose outputs are the input with a mirror image of one
of its objects (an 8-connected object, a color's cells, or all non-background cells) across one edge of the
object's box, overlaid: each pair's non-background cells are the input's (or the object's) plus the image's.
Prints the sides that fit each pair (docs/arc-search.md: why a mirror toward a marker is not built).

Usage: scripts/mirror_toward.py DATA/arc/training RESULTS.csv   (plain Python, no packages)"""
import json,csv,os,sys
if len(sys.argv) != 3:
    sys.exit(__doc__)
D=sys.argv[1]
res={r['id']:r for r in csv.DictReader(open(sys.argv[2]))}
def bg(g):
    from collections import Counter
    return Counter(v for r in g for v in r).most_common(1)[0][0]
def comps(g,b):
    H,W=len(g),len(g[0]); seen=set(); out=[]
    for i in range(H):
        for j in range(W):
            if g[i][j]!=b and (i,j) not in seen:
                st=[(i,j)]; seen.add((i,j)); cs=[]
                while st:
                    r,c=st.pop(); cs.append((r,c))
                    for dr in (-1,0,1):
                        for dc in (-1,0,1):
                            rr,cc=r+dr,c+dc
                            if 0<=rr<H and 0<=cc<W and (rr,cc) not in seen and g[rr][cc]!=b:
                                seen.add((rr,cc)); st.append((rr,cc))
                out.append(cs)
    return out
def sets(g,b): return {(i,j) for i,r in enumerate(g) for j,v in enumerate(r) if v!=b}
def fits(x,y):
    b=bg(x); H,W=len(x),len(x[0])
    ys={(i,j) for i,r in enumerate(y) for j,v in enumerate(r) if v!=bg(y)}
    xs=sets(x,b)
    cands=comps(x,b)
    # also per-color objects
    cols={v for r in x for v in r if v!=b}
    for c in cols: cands.append([(i,j) for i,r in enumerate(x) for j,v in enumerate(r) if v==c])
    cands.append(list(xs))
    out=set()
    for k,obj in enumerate(cands):
        if not obj: continue
        r0=min(r for r,_ in obj); r1=max(r for r,_ in obj); c0=min(c for _,c in obj); c1=max(c for _,c in obj)
        for side in ('up','down','left','right'):
            img=set()
            for r,c in obj:
                if side=='down': rr,cc=2*r1+1-r,c
                elif side=='up': rr,cc=2*r0-1-r,c
                elif side=='right': rr,cc=r,2*c1+1-c
                else: rr,cc=r,2*c0-1-c
                img.add((rr,cc))
            if not all(0<=r<H and 0<=c<W for r,c in img): continue
            for base in (xs, set(obj)):
              if (base|img)==ys or ((xs-set())|img)==ys:
                out.add(side); break
    return out
n=0
for f in sorted(os.listdir(D)):
    t=f[:-5]
    if res.get(t,{}).get('solved')=='true': continue
    d=json.load(open(D+'/'+f))
    ok=True; sides=[]
    for p in d['train']:
        x,y=p['input'],p['output']
        if len(x)!=len(y) or len(x[0])!=len(y[0]): ok=False;break
        s=fits(x,y)
        if not s: ok=False;break
        sides.append(sorted(s))
    if ok: n+=1; print(t,res.get(t,{}).get('category'),sides)
print(n)
