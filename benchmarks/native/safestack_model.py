#!/usr/bin/python3
"""Why `siren test` does not find the bug of pthread-complex/safestack_relacy.c (benchmarks/NATIVE.md).

An explicit-state breadth-first search of the task's algorithm under sequential consistency,
written by hand from the C source: each atomic_* call and each plain load / store of the
shared stack is one step, three threads, each popping and pushing back twice. It prints the
shortest schedule that makes two threads own the same element (the task's assertion fails)
and how many context switches it has. Randomised testing needs that many switches, in that
order, in one run: it does not happen in 10^5 runs (NATIVE.md).

With --search it also measures what a systematic search of this model needs before it reaches a
failing state: a stateful depth-first search (lowest thread first, or the running thread first),
the breadth-first search, and the whole reachable state space (minutes; the reason why `siren
test --strategy dfs`, which searches the native program's finer and larger state space at about
a thousand states a second, does not reach the bug in minutes either).

Usage: benchmarks/native/safestack_model.py [--search]
"""
import collections, sys
N=3
# shared: head, count, Next[3], Value[3]
def init():
    return (0, 3, (1,2,-1), (0,0,0))
# thread local state: (pc, i, elem, head1, next1, head2, idx)
# pcs:
# 'loop'       : outer for i<2 check
# 'pop_cnt'    : while (load count > 1)
# 'pop_head'   : head1 = load head
# 'pop_xchg'   : next1 = xchg(Next[head1], -1)
# 'pop_cas'    : CAS(head, head2=head1, next1)
# 'pop_sub'    : fetch_sub count ; return head1
# 'pop_restore': xchg(Next[head1], next1)
# 'setv'       : Value[elem] = idx
# 'chk'        : assert(Value[elem]==idx)
# 'push_head'  : head1 = load head
# 'push_store' : Next[index] = head1
# 'push_cas'   : CAS(head, head1, index) ; on fail head1 = head
# 'push_add'   : count++
# 'done'
def step(sh, th, tid):
    head,count,Nx,Val = sh
    pc,i,elem,h1,n1 = th
    Nx=list(Nx); Val=list(Val)
    if pc=='loop':
        th=('pop_cnt',i,elem,h1,n1) if i<2 else ('done',i,elem,h1,n1)
    elif pc=='pop_cnt':
        th=('pop_head',i,elem,h1,n1) if count>1 else ('pop_cnt',i,elem,h1,n1)  # Pop returns -1 -> retry Pop
    elif pc=='pop_head':
        th=('pop_xchg',i,elem,head,n1)
    elif pc=='pop_xchg':
        n=Nx[h1]; Nx[h1]=-1
        th=('pop_cas',i,elem,h1,n) if n>=0 else ('pop_cnt',i,elem,h1,n)
    elif pc=='pop_cas':
        if head==h1:
            head=n1; th=('pop_sub',i,elem,h1,n1)
        else:
            th=('pop_restore',i,elem,h1,n1)
    elif pc=='pop_sub':
        count-=1; th=('setv',i,h1,h1,n1)
    elif pc=='pop_restore':
        Nx[h1]=n1; th=('pop_cnt',i,elem,h1,n1)
    elif pc=='setv':
        Val[elem]=tid; th=('chk',i,elem,h1,n1)
    elif pc=='chk':
        if Val[elem]!=tid: return None
        th=('push_head',i,elem,h1,n1)
    elif pc=='push_head':
        th=('push_store',i,elem,head,n1)
    elif pc=='push_store':
        Nx[elem]=h1; th=('push_cas',i,elem,h1,n1)
    elif pc=='push_cas':
        if head==h1: head=elem; th=('push_add',i,elem,h1,n1)
        else: th=('push_store',i,elem,head,n1)
    elif pc=='push_add':
        count+=1; th=('loop',i+1,elem,h1,n1)
    return (head,count,tuple(Nx),tuple(Val)), th
def fewest_switches():
    """0-1 breadth-first search: a step of another thread than the last costs 1."""
    start = (init(), tuple(('loop',0,-1,-1,-1) for _ in range(N)), -1)
    dist = {start: 0}
    dq = collections.deque([start])
    best = None
    while dq:
        s = dq.popleft(); sh, ths, last = s; d = dist[s]
        if best is not None and d >= best: break
        for t in range(N):
            if ths[t][0] == 'done': continue
            r = step(sh, ths[t], t)
            c = d + (1 if last not in (-1, t) else 0)
            if r is None:
                best = c if best is None else min(best, c)
                continue
            nsh, nth = r; nths = list(ths); nths[t] = nth; ns = (nsh, tuple(nths), t)
            if ns not in dist or dist[ns] > c:
                dist[ns] = c
                (dq.appendleft if c == d else dq.append)(ns)
    return best
def dfs_states(order):
    """States a stateful depth-first search visits before its first failing step; order(ts, last)
    gives the threads to try, in order, after thread `last` ran."""
    s0 = (init(), tuple(('loop',0,-1,-1,-1) for _ in range(N)))
    seen = {s0}
    stack = [(s0, -1, iter(order(range(N), -1)))]
    while stack:
        (sh, ths), last, it = stack[-1]
        t = next(it, None)
        if t is None: stack.pop(); continue
        if ths[t][0] == 'done': continue
        r = step(sh, ths[t], t)
        if r is None: return len(seen)
        nsh, nth = r; nths = list(ths); nths[t] = nth; ns = (nsh, tuple(nths))
        if ns in seen: continue
        seen.add(ns)
        stack.append((ns, t, iter(order(range(N), t))))
    return None
def reachable():
    """All reachable states, and the failing steps among their successors."""
    s0 = (init(), tuple(('loop',0,-1,-1,-1) for _ in range(N)))
    seen = {s0}; q = collections.deque([s0]); failing = 0
    while q:
        sh, ths = q.popleft()
        for t in range(N):
            if ths[t][0] == 'done': continue
            r = step(sh, ths[t], t)
            if r is None: failing += 1; continue
            nsh, nth = r; nths = list(ths); nths[t] = nth; ns = (nsh, tuple(nths))
            if ns not in seen: seen.add(ns); q.append(ns)
    return len(seen), failing
if '--search' in sys.argv:
    print("stateful DFS, lowest thread first: %d states before a failing step" % dfs_states(lambda ts, last: list(ts)))
    print("stateful DFS, running thread first: %d states before a failing step" %
          dfs_states(lambda ts, last: ([last] if last >= 0 else []) + [t for t in ts if t != last]))
    print("reachable: %d states, %d failing steps" % reachable())
s0=(init(), tuple(('loop',0,-1,-1,-1) for _ in range(N)))
prev={s0:None}; q=collections.deque([s0])
while q:
    s=q.popleft(); sh,ths=s
    for t in range(N):
        if ths[t][0]=='done': continue
        r=step(sh,ths[t],t)
        if r is None:
            # bug: reconstruct
            path=[];x=s
            while x is not None:
                path.append(x); x=prev[x][0] if prev[x] else None
            path.reverse()
            order=[prev[p][1] for p in path[1:]]+[t]
            switches=sum(1 for a,b in zip(order,order[1:]) if a!=b)
            print("assertion fails after %d steps, %d context switches" % (len(order), switches))
            print("threads:", "".join(str(x) for x in order))
            print("fewest context switches of any failing schedule: %d" % fewest_switches())
            if '--search' in sys.argv: print("breadth-first search: %d states before a failing step" % len(prev))
            sys.exit(0)
        nsh,nth=r; nths=list(ths); nths[t]=nth; ns=(nsh,tuple(nths))
        if ns not in prev: prev[ns]=(s,t); q.append(ns)
print("no bug;", len(prev), "states")

