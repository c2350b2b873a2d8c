"""Trains FaceKit's smile network and measures it, beside the geometric model, on held-out faces.

Run through scripts/train-smile-model, which installs this script's packages (JAX on the CPU,
NumPy, Pillow, ONNX: scripts/eye-model-requirements.txt) in a virtual environment of its own and
exports the patches first; FaceKit itself never needs Python.

Data: the mouth patches `facekit-train mouth-patches` cut with FaceKit's own landmarks
(mouths.u8, mouths.csv) from GENKI-4K and SMILEsmileD, with their split: GENKI-4K files numbered
1 mod 4 and SMILEsmileD even numbers train, GENKI-4K 3 mod 4 and SMILEsmileD odd numbers are
held out (the test split, which FaceKit's tests read). The network, its augmentation and its
training are the eye-state network's (scripts/eye_model.py), on a mouth patch one outer-eye-corner
distance square.

Protocol (nothing is chosen on the test split):
- the training part is dealt into five folds by file (each photo a person, as neither set names
  its people); for each candidate number of training steps a network trained on four folds
  scores the fifth, and the candidate whose out-of-fold scores rank best (the mean of the two
  sets' AUCs) is kept; with --members, the candidates are also one network or the mean of
  several (each from its own seed), each read on the patch alone or with its mirror image too;
- the kept candidate's out-of-fold logits fit the calibration (Platt scaling, both sets weighing
  the same), alone or blended with the out-of-fold logit of the geometric model (which
  facekit-train fits on the other four folds): the blend is kept when its cross-fitted
  probabilities (each fold's fitted on the other four) rank better. The calibration is folded
  into the shipped networks' last layers, and the mirror reading and the geometric logit's weight
  go to --choices-output (SmileModel+Trained.swift); the networks are trained on the whole
  training part and scored once on the test split;
- leave one set out: a network trained on one set's training part scores the other set's test
  split (its own probabilities: the calibration saw both sets).
The geometric model's probabilities come with the patches (facekit-train fits it on the same
faces), so both are scored on the same faces. Writes the network (ONNX) and prints the tables of
docs/accuracy.md.
"""

import argparse
import csv
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import eye_model as net  # noqa: E402  (the network, augmentation, training and metrics)

FOLDS = 5
SEED = 20261202


def load(folder):
    raw = np.fromfile(os.path.join(folder, "mouths.u8"), dtype=np.uint8).reshape(-1, net.BASE, net.BASE)
    with open(os.path.join(folder, "mouths.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(raw), "mouths.csv and mouths.u8 disagree"
    column = lambda name, kind=str: np.array([kind(r[name]) if r[name] != "" else np.nan for r in rows]
                                              if kind is float else [kind(r[name]) for r in rows])
    return dict(
        patches=raw, sets=column("set"), sources=column("source"), train=column("split") == "train",
        labels=column("smiling", float).astype(np.float32), plausible=column("plausible") == "1",
        inter_ocular=column("inter_ocular", float), runtime=column("runtime_probability", float),
        geometric=column("geometric", float), genki_only=column("geometric_genki_only", float),
        smiled_only=column("geometric_smilesmiled_only", float), rows=rows,
        fold=np.array([int(r["fold"]) if r["fold"] != "" else -1 for r in rows]),
        geometric_logit=column("geometric_logit", float), genki_only_logit=column("geometric_genki_only_logit", float),
        smiled_only_logit=column("geometric_smilesmiled_only_logit", float),
        geometric_logit_oof=column("geometric_logit_out_of_fold", float))


def folds_of(sets, sources, rows):
    """Each training face's fold: the faces of a set, sorted by file, dealt out in turn."""
    folds = np.full(len(sets), -1)
    for s in sorted(set(sets[rows])):
        chosen = np.flatnonzero(rows & (sets == s))
        order = chosen[np.argsort(sources[chosen], kind="mergesort")]
        folds[order] = np.arange(len(order)) % FOLDS
    return folds


def set_weights(sets, rows):
    """Weights over `rows` under which each set weighs the same in all."""
    w = np.zeros(len(sets))
    names = sorted(set(sets[rows]))
    for s in names:
        chosen = rows & (sets == s)
        w[chosen] = 1 / (len(names) * chosen.sum())
    return w * rows.sum()


def fit_blend(z, g, y, w):
    """a, c, b minimising the weighted log loss of sigmoid(a z + c g + b): the network's logit z
    and the geometric model's g, blended (Newton's method, each step halved until the loss falls)."""
    x = np.stack([z, g, np.ones_like(z)], axis=1)

    def loss(theta):
        t = x @ theta
        return np.sum(w * (np.logaddexp(0, t) - y * t))

    theta = np.array([1.0, 0.0, 0.0])
    for _ in range(100):
        p = net.sigmoid(x @ theta)
        gradient = x.T @ (w * (p - y))
        hessian = (x * (w * p * (1 - p))[:, None]).T @ x + 1e-6 * np.eye(3)
        step = np.linalg.solve(hessian, gradient)
        current = loss(theta)
        while loss(theta - step) > current and np.abs(step).max() > 1e-9:
            step = step / 2
        theta = theta - step
        if np.abs(step).max() < 1e-7:
            break
    return float(theta[0]), float(theta[1]), float(theta[2])


def cross_fitted(z, g, y, w, folds, train):
    """Out-of-fold probabilities of the calibration alone (g is None) or of the blend: for each
    fold, fitted on the other folds' out-of-fold logits, so no face's probability saw its label."""
    p = np.full(len(z), np.nan)
    for fold in range(FOLDS):
        fit, scored = train & (folds != fold), train & (folds == fold)
        if g is None:
            a, b = net.fit_platt(z[fit], y[fit], w[fit])
            p[scored] = net.sigmoid(a * z[scored] + b)
        else:
            a, c, b = fit_blend(z[fit], g[fit], y[fit], w[fit])
            p[scored] = net.sigmoid(a * z[scored] + c * g[scored] + b)
    return p


def write_choices(path, mirror, weight):
    """The Swift constants by which the runtime reads the network as it was chosen and calibrated."""
    with open(path, "w") as f:
        f.write("// Generated by scripts/train-smile-model (scripts/smile_model.py) with smile.onnx; do not edit by hand.\n\n"
                "extension SmileModel {\n"
                "    /// Whether the network's logit is the mean of its readings of the patch and of the\n"
                "    /// patch's mirror image, as cross-validation chose (docs/accuracy.md, \"Smile network\").\n"
                f"    static let readsMirrorImage = {'true' if mirror else 'false'}\n"
                "    /// The weight of the geometric model's logit (``ClassifierWeights/smile`` over\n"
                "    /// ``SmileFeatures``) added to the network's calibrated logit; 0 when cross-validation\n"
                "    /// kept the network alone.\n"
                f"    static let geometricLogitWeight = {weight!r}\n"
                "}\n")


def member_seed(member):
    """The seed of an ensemble's network `member` (the first has the single network's)."""
    return SEED + 1000 * member


def combined(logits, mirror):
    """The mean logit of networks given as (plain, mirrored) logits, over the plain readings only
    or over both."""
    return np.mean([(z + zm) / 2 if mirror else z for z, zm in logits], axis=0)


def metrics(p, y):
    return net.auc(p, y), float(np.mean((p >= 0.5) == (y == 1))), float(np.mean((p - y) ** 2))


def f3(x):
    return net.f3(x)


def reliability(columns, y, rows):
    """Rows of a reliability table: per bin of 0.1, for each model, faces, mean prediction and the
    observed smiling rate."""
    lines = []
    for low in np.arange(0, 1, 0.1):
        cells = [f"{low:.1f}-{low + 0.1:.1f}"]
        for p in columns:
            chosen = rows & (p >= low) & ((p < low + 0.1) if low < 0.85 else (p <= 1))
            cells += [str(int(chosen.sum())), f3(p[chosen].mean()) if chosen.any() else "",
                      f3(y[chosen].mean()) if chosen.any() else ""]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--patches", required=True, help="the folder facekit-train mouth-patches wrote")
    parser.add_argument("--output", required=True, help="where to write the network (smile.onnx)")
    parser.add_argument("--work", required=True, help="a folder for what a run keeps (held-out logits, the network)")
    parser.add_argument("--candidates", default="3200",
                        help="numbers of training steps to choose from by cross-validation")
    parser.add_argument("--choices-output", default=None,
                        help="where to write the Swift constants of the choices the runtime follows (the mirror "
                             "image, the geometric blend): Sources/FaceKit/Classification/SmileModel+Trained.swift")
    parser.add_argument("--reuse", action="store_true",
                        help="take the out-of-fold logits already in --work (cv-logits.npz) and train only the networks "
                             "missing there (more --members than the last run)")
    parser.add_argument("--members", default="1",
                        help="numbers of networks averaged to choose from by cross-validation (each also "
                             "scored with and without the mirror image)")
    args = parser.parse_args()
    log = lambda text: print(text, file=sys.stderr, flush=True)
    started = time.time()

    d = load(args.patches)
    base, sets, labels, train = d["patches"], d["sets"], d["labels"], d["train"]
    test = ~train
    names = sorted(set(sets))
    weights = net.group_weights(sets, labels)
    log("mouths: " + ", ".join(
        f"{s} train {np.sum(train & (sets == s))} ({int(np.sum(train & (sets == s) & (labels == 1)))} smiling), "
        f"test {np.sum(test & (sets == s))}" for s in names))

    # 1. Cross-validation inside the training part, to choose the number of steps, the number of
    #    networks averaged (an ensemble, each trained from its own seed) and whether each face is
    #    also read mirrored (the mean of the two logits). The first network of each fold has the
    #    seed the single network always had, so the single-network rows repeat earlier runs.
    folds = folds_of(sets, d["sources"], train)
    assert np.array_equal(folds, d["fold"]), "the folds of facekit-train mouth-patches differ from this script's"
    candidates = [int(c) for c in args.candidates.split(",")]
    sizes = [int(c) for c in args.members.split(",")]
    mirrored = np.ascontiguousarray(base[:, :, ::-1])
    member_logits = {}  # steps -> list over members of (plain, mirrored) out-of-fold logits
    saved = os.path.join(args.work, "cv-logits.npz")
    reused = {}  # "steps-member" -> out-of-fold logits of an earlier run (--reuse)
    if args.reuse:
        with np.load(saved) as file:
            reused = dict(file)
        # The logits are by row of the patches they were computed on: the same export only.
        assert all(len(v) == len(base) for v in reused.values()), f"{saved} is from other patches"
    for steps in candidates:
        member_logits[steps] = []
        for member in range(max(sizes)):
            if f"{steps}-{member}" in reused:
                member_logits[steps].append((reused[f"{steps}-{member}"], reused[f"{steps}-{member}-mirrored"]))
                continue
            z, zm = np.full(len(base), np.nan), np.full(len(base), np.nan)
            for fold in range(FOLDS):
                t = time.time()
                fit = train & (folds != fold)
                params = net.train(base[fit], labels[fit], weights[fit], steps, member_seed(member) + fold)
                z[folds == fold] = net.predict(params, base[folds == fold])
                zm[folds == fold] = net.predict(params, mirrored[folds == fold])
                log(f"{steps} steps, network {member + 1}, fold {fold}: {time.time() - t:.0f} s")
            member_logits[steps].append((z, zm))
    np.savez(saved, **{f"{steps}-{m}{suffix}": pair[k] for steps in candidates
                       for m, pair in enumerate(member_logits[steps]) for k, suffix in ((0, ""), (1, "-mirrored"))})
    out_of_fold = {(steps, size, mirror): combined(member_logits[steps][:size], mirror)
                   for steps in candidates for size in sizes for mirror in (False, True)}
    cv_auc = {key: np.mean([net.auc(z[train & (sets == s)], labels[train & (sets == s)]) for s in names])
              for key, z in out_of_fold.items()}
    # The best mean AUC to four places; on a tie the cheaper: fewer networks, no mirror, fewer steps.
    chosen = max(out_of_fold, key=lambda k: (round(cv_auc[k], 4), -k[1], not k[2], -k[0]))
    chosen_steps, chosen_size, chosen_mirror = chosen
    log(f"chosen: {chosen_steps} steps, {chosen_size} network(s), mirrored {'too' if chosen_mirror else 'no'}")

    # 2. Calibration on the chosen candidate's out-of-fold logits, alone or blended with the
    #    geometric model's out-of-fold logit; the blend is kept only if its cross-fitted
    #    probabilities rank better (the mean of the two sets' AUCs, to four places).
    z_cv = out_of_fold[chosen]
    g_cv = d["geometric_logit_oof"]
    w_sets = set_weights(sets, train)
    per_set = lambda p, fn: [fn(p[train & (sets == s)], labels[train & (sets == s)]) for s in names]
    brier = lambda p, y: float(np.mean((p - y) ** 2))
    calibration_cv = {"network alone": cross_fitted(z_cv, None, labels, w_sets, folds, train),
                      "network and geometric model": cross_fitted(z_cv, g_cv, labels, w_sets, folds, train)}
    blend_auc = {k: np.mean(per_set(p, net.auc)) for k, p in calibration_cv.items()}
    blended = round(blend_auc["network and geometric model"], 4) > round(blend_auc["network alone"], 4)
    if blended:
        a, c, b = fit_blend(z_cv[train], g_cv[train], labels[train], w_sets[train])
    else:
        (a, b), c = net.fit_platt(z_cv[train], labels[train], w_sets[train]), 0.0
    log(f"blend with the geometric model: {'yes' if blended else 'no'} (cross-fitted AUC "
        + ", ".join(f"{k} {v:.4f}" for k, v in blend_auc.items()) + ")")
    if args.choices_output:
        write_choices(args.choices_output, chosen_mirror, c)

    # 3. The shipped networks: the whole training part.
    members = []
    for member in range(chosen_size):
        t = time.time()
        members.append(net.train(base[train], labels[train], weights[train], chosen_steps, member_seed(member), log))
        log(f"shipped network {member + 1}: {time.time() - t:.0f} s")
    np.savez(os.path.join(args.work, "network.npz"),
             params=np.array([[(np.asarray(w), np.asarray(bb)) for (w, bb) in m] for m in members], dtype=object))
    net.export_onnx(members if chosen_size > 1 else members[0], a, b, args.output, name="facekit_smile",
                    doc=("FaceKit smile: logit of 'smiling' for a standardised 32 x 32 grey mouth patch (one "
                         "outer-eye-corner distance square, centred between the mouth's corners and levelled by "
                         "the 68 landmarks; scripts/smile_model.py)"
                         + (f"; the mean of {chosen_size} networks" if chosen_size > 1 else "")
                         + ("; calibrated for the mean of the logits of the patch and of its mirror image, "
                            "which the caller takes" if chosen_mirror else "")
                         + (f"; calibrated for the sum with {c:.4f} times the logit of FaceKit's geometric smile "
                            "model, which the caller adds" if blended else "")),
                    producer="facekit smile_model.py")
    log(f"wrote {args.output}")
    shipped = lambda patches: combined([(net.predict(m, patches), net.predict(m, patches[:, :, ::-1])) for m in members],
                                       chosen_mirror)
    z_shipped = shipped(base)
    g_all = d["geometric_logit"]
    cnn = net.sigmoid(a * z_shipped + c * g_all + b)
    # The same networks calibrated alone, for the before-and-after table when the blend is kept.
    a0, b0 = net.fit_platt(z_cv[train], labels[train], w_sets[train])
    network_alone = net.sigmoid(a0 * z_shipped + b0) if blended else cnn
    # The single network shipped before (the first member, its calibration from its own
    # out-of-fold logits), for the before-and-after table.
    a1, b1 = net.fit_platt(out_of_fold[(chosen_steps, 1, False)][train], labels[train],
                           set_weights(sets, train)[train])
    single = net.sigmoid(a1 * net.predict(members[0], base) + b1) if chosen != (chosen_steps, 1, False) else cnn

    # 4. Leave one set out: trained on one set's training part, scored on the other's test split.
    by_set = np.full(len(base), np.nan)
    by_set_blended = np.full(len(base), np.nan)
    for left_out in names:
        t = time.time()
        fit = train & (sets != left_out)
        scored = test & (sets == left_out)
        left = [net.train(base[fit], labels[fit], weights[fit], chosen_steps, member_seed(member))
                for member in range(chosen_size)]
        z_left = combined([(net.predict(m, base[scored]), net.predict(m, mirrored[scored])) for m in left],
                          chosen_mirror)
        by_set[scored] = net.sigmoid(z_left)
        # The blend with the geometric model fitted on the same other set, its weights the shipped ones.
        g_left = (d["smiled_only_logit"] if left_out == "genki" else d["genki_only_logit"])[scored]
        by_set_blended[scored] = net.sigmoid(a * z_left + c * g_left + b)
        log(f"without {left_out}: {time.time() - t:.0f} s")

    # Tables.
    network_name = ("smile network" + (f", mean of {chosen_size} networks" if chosen_size > 1 else "")
                    + (", with the mirror image" if chosen_mirror else ""))
    shipped_name = network_name + (", blended with the geometric model" if blended else "")
    pretty = {"genki": "GENKI-4K (files 3 mod 4)", "smilesmiled": "SMILEsmileD (odd numbers)"}
    print(f"Mouths: " + "; ".join(
        f"{s}: {np.sum(train & (sets == s))} training faces, {np.sum(test & (sets == s))} held out" for s in names)
          + ". Faces with implausible landmarks (the runtime gives them no smile): "
          + ", ".join(f"{s} {int(np.sum(test & (sets == s) & ~d['plausible']))} held out" for s in names) + ".\n")
    print("Cross-validation inside the training part (five folds by file), mean of the two sets' AUCs:\n")
    print("| training steps | networks | mirror image too | " + " | ".join(f"{s} AUC" for s in names) + " | mean |")
    print("|---|---|---|" + "---|" * (len(names) + 1))
    for key, z in out_of_fold.items():
        steps, size, mirror = key
        per = [net.auc(z[train & (sets == s)], labels[train & (sets == s)]) for s in names]
        print(f"| {steps} | {size} | {'yes' if mirror else 'no'}{' (chosen)' if key == chosen else ''} | "
              + " | ".join(f3(x) for x in per) + f" | {f3(cv_auc[key])} |")
    print("\nThe chosen networks' out-of-fold logits calibrated alone or blended with the geometric model's "
          "out-of-fold logit, each fold's probabilities fitted on the other four folds (cross-fitted):\n")
    print("| probability | " + " | ".join(f"{s} AUC | {s} Brier" for s in names) + " | mean AUC |")
    print("|---|" + "---|---|" * len(names) + "---|")
    for key, p in calibration_cv.items():
        cells = [f"{f3(x)} | {f3(y)}" for x, y in zip(per_set(p, net.auc), per_set(p, brier))]
        kept = " (kept)" if (key == "network and geometric model") == blended else ""
        print(f"| {key}{kept} | " + " | ".join(cells) + f" | {f3(blend_auc[key])} |")
    if blended:
        print(f"\nCalibration (both sets weighing the same, on the out-of-fold logits): sigmoid(a z + c g + b), "
              f"z the networks' mean logit, g the geometric model's: a = {a:.4f}, c = {c:.4f}, b = {b:.4f}\n")
    else:
        print(f"\nCalibration (Platt scaling on the chosen candidate's out-of-fold logits, both sets weighing the "
              f"same): a = {a:.4f}, b = {b:.4f}\n")
    print("Held out (the test split), the same faces for both models:\n")
    print("| set | faces | smiling | model | ROC AUC | accuracy at 0.5 | Brier |")
    print("|---|---|---|---|---|---|---|")
    for s in names:
        rows = test & (sets == s)
        y = labels[rows]
        models = [("geometric (logistic, SmileFeatures)", d["geometric"])]
        if single is not cnn:
            models.append(("smile network, one network", single))
        if network_alone is not cnn:
            models.append((network_name, network_alone))
        models.append((shipped_name, cnn))
        for title, p in models:
            auc_, acc, brier = metrics(p[rows], y)
            print(f"| {pretty[s]} | {rows.sum()} | {int(y.sum())} | {title} | {f3(auc_)} | {f3(acc)} | {f3(brier)} |")
    if not np.isnan(d["runtime"][test]).all():
        same = test & ~np.isnan(d["runtime"])
        # The runtime's own smile probability when the patches were exported: with the network
        # this run writes installed first, the two agree (the export check).
        print(f"\n(The runtime at export gave {same.sum()} of the {test.sum()} held-out faces a probability; "
              f"its largest difference from this run's network: {np.nanmax(np.abs(d['runtime'][same] - cnn[same])):.4f}.)")
    print("\nLeave one set out (trained on the other set's training part, scored on this set's held-out faces):\n")
    print("| left out | faces | model | ROC AUC | accuracy at 0.5 | Brier |")
    print("|---|---|---|---|---|---|")
    for s in names:
        rows = test & (sets == s)
        y = labels[rows]
        geometric = d["smiled_only"] if s == "genki" else d["genki_only"]
        models = [("geometric, fitted on the other set", geometric),
                  ("smile network, trained on the other set (uncalibrated)", by_set)]
        if blended:
            models.append(("both, trained on the other set, blended with the shipped weights", by_set_blended))
        for title, p in models:
            auc_, acc, brier = metrics(p[rows], y)
            print(f"| {pretty[s]} | {rows.sum()} | {title} | {f3(auc_)} | {f3(acc)} | {f3(brier)} |")
    for s in names:
        rows = test & (sets == s)
        print(f"\n{pretty[s]} reliability, held out:\n")
        print("| predicted | geometric: faces | mean prediction | observed smiling | network: faces | mean prediction "
              "| observed smiling |")
        print("|---|---|---|---|---|---|---|")
        print("\n".join(reliability([d["geometric"], cnn], labels, rows)))
    print("\nBy face size (outer-eye-corner distance), held out, both sets:\n")
    print("| eye-corner distance | faces | geometric AUC | network AUC | network accuracy at 0.5 |")
    print("|---|---|---|---|---|")
    for low, high in ((0, 16), (16, 24), (24, 32), (32, 48), (48, 1e9)):
        rows = test & (d["inter_ocular"] >= low) & (d["inter_ocular"] < high)
        if rows.any():
            name = f"{low}-{int(high)} px" if high < 1e9 else f"over {low} px"
            print(f"| {name} | {rows.sum()} | {f3(net.auc(d['geometric'][rows], labels[rows]))} | "
                  f"{f3(net.auc(cnn[rows], labels[rows]))} | {f3(np.mean((cnn[rows] >= 0.5) == (labels[rows] == 1)))} |")
    with open(os.path.join(args.work, "heldout.csv"), "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["set", "source", "smiling", "geometric", "network", "network_other_set"])
        for i in np.flatnonzero(test):
            out.writerow([sets[i], d["sources"][i], int(labels[i]), f"{d['geometric'][i]:.6f}", f"{cnn[i]:.6f}",
                          f"{by_set[i]:.6f}"])
    log(f"smile_model.py: {time.time() - started:.0f} s in all")


if __name__ == "__main__":
    main()
