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
  the same), which is folded into the shipped networks' last layers; they are trained on
  the whole training part and scored once on the test split;
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
        smiled_only=column("geometric_smilesmiled_only", float), rows=rows)


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
    candidates = [int(c) for c in args.candidates.split(",")]
    sizes = [int(c) for c in args.members.split(",")]
    mirrored = np.ascontiguousarray(base[:, :, ::-1])
    member_logits = {}  # steps -> list over members of (plain, mirrored) out-of-fold logits
    for steps in candidates:
        member_logits[steps] = []
        for member in range(max(sizes)):
            z, zm = np.full(len(base), np.nan), np.full(len(base), np.nan)
            for fold in range(FOLDS):
                t = time.time()
                fit = train & (folds != fold)
                params = net.train(base[fit], labels[fit], weights[fit], steps, member_seed(member) + fold)
                z[folds == fold] = net.predict(params, base[folds == fold])
                zm[folds == fold] = net.predict(params, mirrored[folds == fold])
                log(f"{steps} steps, network {member + 1}, fold {fold}: {time.time() - t:.0f} s")
            member_logits[steps].append((z, zm))
    out_of_fold = {(steps, size, mirror): combined(member_logits[steps][:size], mirror)
                   for steps in candidates for size in sizes for mirror in (False, True)}
    cv_auc = {key: np.mean([net.auc(z[train & (sets == s)], labels[train & (sets == s)]) for s in names])
              for key, z in out_of_fold.items()}
    # The best mean AUC to four places; on a tie the cheaper: fewer networks, no mirror, fewer steps.
    chosen = max(out_of_fold, key=lambda k: (round(cv_auc[k], 4), -k[1], not k[2], -k[0]))
    chosen_steps, chosen_size, chosen_mirror = chosen
    log(f"chosen: {chosen_steps} steps, {chosen_size} network(s), mirrored {'too' if chosen_mirror else 'no'}")
    if chosen_mirror:
        # SmileModel reads the patch alone; the calibration below would be for the mean of both.
        log("warning: the choice reads the mirror image too, which SmileModel does not: teach it to "
            "(the mean of the two logits) before shipping this network")

    # 2. Calibration on the chosen candidate's out-of-fold logits.
    z_cv = out_of_fold[chosen]
    a, b = net.fit_platt(z_cv[train], labels[train], set_weights(sets, train)[train])

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
                            "which the caller takes" if chosen_mirror else "")),
                    producer="facekit smile_model.py")
    log(f"wrote {args.output}")
    shipped = lambda patches: combined([(net.predict(m, patches), net.predict(m, patches[:, :, ::-1])) for m in members],
                                       chosen_mirror)
    cnn = net.sigmoid(a * shipped(base) + b)
    # The single network shipped before (the first member, its calibration from its own
    # out-of-fold logits), for the before-and-after table.
    a1, b1 = net.fit_platt(out_of_fold[(chosen_steps, 1, False)][train], labels[train],
                           set_weights(sets, train)[train])
    single = net.sigmoid(a1 * net.predict(members[0], base) + b1) if chosen != (chosen_steps, 1, False) else cnn

    # 4. Leave one set out: trained on one set's training part, scored on the other's test split.
    by_set = np.full(len(base), np.nan)
    for left_out in names:
        t = time.time()
        fit = train & (sets != left_out)
        scored = test & (sets == left_out)
        left = [net.train(base[fit], labels[fit], weights[fit], chosen_steps, member_seed(member))
                for member in range(chosen_size)]
        by_set[scored] = net.sigmoid(combined(
            [(net.predict(m, base[scored]), net.predict(m, mirrored[scored])) for m in left], chosen_mirror))
        log(f"without {left_out}: {time.time() - t:.0f} s")

    # Tables.
    shipped_name = ("smile network" + (f", mean of {chosen_size} networks" if chosen_size > 1 else "")
                    + (", with the mirror image" if chosen_mirror else ""))
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
            models.append(("smile network, one network (shipped before)", single))
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
        for title, p in (("geometric, fitted on the other set", geometric),
                         ("smile network, trained on the other set (uncalibrated)", by_set)):
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
