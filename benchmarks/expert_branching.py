"""Branching test of the expert's discard ranking (docs/bots.md, "Fifth round").

One ``expert`` against three ``ukeire``; at a share of the expert's discard decisions with two or more
near-fastest candidates (fastest shanten, >= POOL of the fastest discard's useful tiles; up to 4 by the
learned value, the bot's own choice always included) the game is copied and every candidate is played
out to the end on the same wall (common random numbers).  Writes a pickle of groups
(features per candidate, the seat's points per candidate, candidate tiles, chosen tile, tiles left).

    PYTHONPATH=src python benchmarks/expert_branching.py a 5000 /tmp/adv_a.pkl   # ~38 min, 2 cores
    PYTHONPATH=src python benchmarks/expert_branching.py --fit /tmp/adv_a.pkl
"""
import sys, copy, pickle, random, time, multiprocessing as mp
from shangrao.bots.expert import ExpertBot, _speed, _value_features
from shangrao.bots import get_bot
from shangrao.game import Game, play_hand
from shangrao.game.actions import Action, ActionType as A
from shangrao.tiles import TERMINALS_AND_HONORS as TH

POOL = float(sys.argv[4]) if len(sys.argv) > 4 else 0.5
CAP = 4
Q = 0.6

def bots_for(i, seat):
    return [ExpertBot(seed=f"{i}:{s}") if s == seat else get_bot("ukeire", f"{i}:{s}") for s in range(4)]

def step(game, bots):
    seat = game.current_seat
    legal = game.legal_actions()
    a = legal[0] if len(legal) == 1 else bots[seat].choose(game.observation(seat), legal)
    game.push(a)

def cands(bot, obs, legal):
    ctx = bot._ctx(obs)
    melds = list(obs.melds[obs.seat]); c = list(obs.hand_34); m = 4 - len(melds)
    jok = all(t in TH for mm in melds for t in mm.tiles)
    est, speed = {}, {}
    for a in legal:
        if a.type is A.DISCARD and a.tile is not None and a.tile not in est:
            k = a.tile; c[k] -= 1
            f = ctx.flown + (1 if k == ctx.bao else 0)
            est[k] = bot.evaluate(c, melds, f, ctx); speed[k] = _speed(c, ctx, m, jok); c[k] += 1
    if not est:
        return []
    non_bao = [k for k in est if k != ctx.bao] or list(est)
    fast_k = min(non_bao, key=lambda k: (speed[k][0], -speed[k][1], -k))
    ok = [k for k in est if k != ctx.bao or (bot.fly and est[k].shanten <= 0)] or list(est)
    pool = [k for k in ok if speed[k][0] == speed[fast_k][0] and speed[k][1] >= POOL * speed[fast_k][1]]
    out = []
    for k in pool:
        c[k] -= 1
        x = _value_features(ctx, c, melds, ctx.flown + (1 if k == ctx.bao else 0), est[k], speed[k])
        c[k] += 1
        out.append((k, x, sum(a * b for a, b in zip(bot.value_model, x))))
    out.sort(key=lambda t: -t[2])
    return out

def hand(args):
    tag, i = args
    rng = random.Random(f"{tag}:{i}")
    seat = i % 4
    game = Game(seed=f"adv:{tag}:{i}", dealer=(i // 4) % 4, hand_no=0)
    bots = bots_for(i, seat)
    groups = []
    while not game.is_over:
        s = game.current_seat
        legal = game.legal_actions()
        if s == seat and len(legal) > 1 and any(a.type is A.DISCARD for a in legal) and rng.random() < Q:
            obs = game.observation(s)
            cs = cands(bots[s], obs, legal)
            if len(cs) >= 2:
                chosen = bots[s].choose(obs, legal)
                if chosen.type is A.DISCARD:
                    top = cs[:CAP]
                    if chosen.tile not in [t[0] for t in top]:
                        top = [t for t in cs if t[0] == chosen.tile] + top[:CAP - 1]
                    ys = []
                    for k, _x, _v in top:
                        g2 = copy.deepcopy(game)
                        g2.push(Action(A.DISCARD, k))
                        ys.append(play_hand(g2, bots_for(i, seat)).deltas[seat])
                    groups.append(([t[1] for t in top], ys, [t[0] for t in top], chosen.tile, game.tiles_left))
                    game.push(chosen)
                    continue
        step(game, bots)
    return groups

def fit_main(path):
    """Ridge on within-decision differences; held-out gain of the re-ranked choice over the bot's."""
    import pickle, numpy as np, sys
    from shangrao.bots.expert_value import WEIGHTS
    w0=np.array(WEIGHTS)
    G=[]
    for f in path.split(','):
        G+=pickle.load(open(f,'rb'))
    print('groups',len(G))
    rng=np.random.default_rng(0)
    idx=rng.permutation(len(G)); ntest=len(G)//3
    test=set(idx[:ntest].tolist())
    def stack(ids):
        DX=[];DY=[]
        for i in ids:
            X=np.array(G[i][0]); y=np.array(G[i][1],float)
            DX.append(X-X.mean(0)); DY.append(y-y.mean())
        return np.concatenate(DX),np.concatenate(DY)
    tr=[i for i in range(len(G)) if i not in test]; te=sorted(test)
    DX,DY=stack(tr)
    def fit(lam, prior=True):
        base = w0 if prior else np.zeros_like(w0)
        r=DY-DX@base
        d=np.linalg.solve(DX.T@DX+lam*np.eye(len(w0)),DX.T@r)
        return base+d
    def offline(w, ids, pool=0.0):
        gain=[];orc=[]
        for i in ids:
            X=np.array(G[i][0]); y=np.array(G[i][1],float)
            r0=G[i][2].index(G[i][3]); pick=int(np.argmax(X@w)); gain.append(y[pick]-y[r0]); orc.append(y.max()-y[r0])
        g=np.array(gain); return g.mean(), g.std()/np.sqrt(len(g)), np.mean(orc)
    print('w0 on test (sanity 0)', offline(w0,te))
    for lam in [1,10,100,1000,10000]:
        for prior in [True,False]:
            w=fit(lam,prior); print(lam,prior,'test',offline(w,te)[:2],'train',offline(w,tr)[:2])


if __name__ == "__main__":
    if sys.argv[1] == "--fit":
        fit_main(sys.argv[2])
        sys.exit()
    tag, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    t0 = time.time(); groups = []
    with mp.get_context("fork").Pool(2) as pool:
        for j, g in enumerate(pool.imap_unordered(hand, [(tag, i) for i in range(n)], chunksize=4)):
            groups += g
            if j % 100 == 0:
                print(j, len(groups), round(time.time() - t0), flush=True)
                pickle.dump(groups, open(out, "wb"))
    pickle.dump(groups, open(out, "wb"))
    print("done", n, len(groups), round(time.time() - t0))
