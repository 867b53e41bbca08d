#!/usr/bin/env python3
"""Per-hop medians of the end-to-end rows from an endpoint trace (docs/round-trips.md).

Usage: trace-hops.py TRACE STEPS [LAST_N]
  TRACE  a DERIVE_ENDPOINT_TRACE file of `./derive bench --only e2e_1step,e2e_3step`
  STEPS  1 (e2e_1step) or 3 (e2e_3step: Markdown sources)
  LAST_N the last N such jobs (the timed ones: 15)

The bench's jobs run one at a time, so each job's calls are those between its derivative's first
HEAD (the API's cache lookup) and the read that answered the wait, taken in their order: the claim
is the first PutItem, the step's send the next SendMessage, the worker's GET the next GET of a
source, and so on. Milliseconds; a hop printed in brackets is off the path.
"""
import statistics as st
import sys

rows=[]
for line in open(sys.argv[1]):
    p=line.split()
    if len(p)<4: continue
    a,e=float(p[0]),float(p[1]); m=p[2]
    if len(p)>=5: op,path=p[3],p[4]
    else: op,path=('',p[3])
    if op.startswith('X-Amz') or op.startswith('versionId') : path=p[4] if len(p)>4 else ''; op=''
    if '/' in op and not op.startswith('DynamoDB') and not op.startswith('Amazon') and not op.startswith('AWS'): path=op; op=''
    rows.append((a,e,m,op,path))
rows.sort()
puts=[r for r in rows if r[2]=='PUT' and '/derivatives/' in r[4]]
out=[]
for put in puts:
    fp=put[4].split('/derivatives/')[1]
    heads=[r for r in rows if r[2]=='HEAD' and r[4].endswith('/derivatives/'+fp)]
    if not heads: continue
    t0=heads[0][0]
    inter=[r for r in rows if r[2]=='PUT' and '/intermediates/' in r[4] and t0<=r[0]<=put[0]]
    nsteps=1+len(inter)
    if nsteps!=int(sys.argv[2]): continue
    if nsteps==3 and not any(r[4].endswith('.md') for r in rows if t0-50<=r[0]<=put[0]): continue
    after=[h for h in heads if h[0]>=put[1]]
    if not after: continue
    ans=after[0]
    res0=[r for r in rows if r[0]>=put[1] and r[3].endswith('SendMessage')]
    prog0=[r for r in rows if res0 and r[0]>=res0[0][1] and r[3].endswith('UpdateItem')]
    if prog0:
        g=[r for r in rows if r[0]>=prog0[0][1] and r[3].endswith('GetItem')]
        if g and g[0][1]<ans[1]: ans=g[0]
    win=[r for r in rows if t0<=r[0]<=ans[1]]
    def first(pred, since):
        for r in win:
            if r[0]>=since and pred(r): return r
    claim=first(lambda r:r[3].endswith('PutItem'), t0)
    send=first(lambda r:r[3].endswith('SendMessage'), claim[1])
    mark=first(lambda r:r[3].endswith('UpdateItem'), send[1])
    src=first(lambda r:r[2]=='GET' and ('source' in r[4].split('/')[1] if r[4].count('/')>1 else False), send[1])
    res=first(lambda r:r[3].endswith('SendMessage'), put[1])
    prog=first(lambda r:r[3].endswith('UpdateItem'), res[1]) if res else None
    gets=[r for r in win if r[3].endswith('GetItem') and r[0]>claim[0]]
    waitheads=[h for h in heads if h[0]>(src[0] if src else send[0]) and h[0]<=ans[0]]
    before_claim=[r for r in win if r[0]<claim[0]]
    out.append(dict(
        api_calls_until_claim=claim[0]-t0, claim=claim[1]-claim[0], claim_to_send=send[0]-claim[1], send=send[1]-send[0],
        send_to_worker_get=(src[0]-send[1]) if src else None, mark=mark[1]-mark[0],
        worker_get_to_put_end=put[1]-src[0] if src else None, put=put[1]-put[0],
        put_end_to_answer=ans[1]-put[1], put_end_to_result_send=(res[0]-put[1]) if res else None,
        result_to_progress_write=(prog[0]-res[1]) if prog else None, progress_write=(prog[1]-prog[0]) if prog else None,
        answer_before_record=((prog[1]-ans[1]) if prog else None),
        span=ans[1]-t0, heads_waiting=len([h for h in heads if claim[1]<=h[0]<=ans[0]])-1, n_getitem=len(gets)))
out=out[-int(sys.argv[3]):] if len(sys.argv)>3 else out
print('jobs',len(out))
for k in out[0]:
    vals=[o[k] for o in out if o[k] is not None]
    print(f"{k:28s} median {st.median(vals):7.1f}  min {min(vals):7.1f} max {max(vals):7.1f}")
