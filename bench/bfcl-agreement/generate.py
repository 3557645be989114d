"""
Replies for the function-calling leaderboard's cases, scored by the leaderboard's own AST checker.

For every case of eight BFCL v4 categories (simple, multiple, parallel, parallel_multiple and their live_
versions), this writes the right calls and variations of them (each value retyped, renormalised,
dropped, added, renamed; calls reordered, dropped, doubled; float literals such as 5.0 and 1e3 in the
raw text), each with the verdict of BFCL's ast_checker.py on the arguments as json.loads reads them.
bench/bfcl-agreement.bench.ts then scores the same replies with thinkflow's toolCalls and counts
where the two verdicts differ.

    python3 bench/bfcl-agreement/generate.py GORILLA_CHECKOUT [OUT.jsonl] [SEED]

GORILLA_CHECKOUT is a clone of github.com/ShishirPatil/gorilla (its berkeley-function-call-leaderboard
folder is read: the checker, the cases and their possible answers). The checker's imports of the
leaderboard's package (its language enum, model config and Java/JavaScript converters, none used for
Python cases) are stood in for by the smallest modules that let it load; the checker itself runs as is.
"""
import json
import os
import random
import shutil
import sys
import tempfile

GORILLA = sys.argv[1]
OUT = sys.argv[2] if len(sys.argv) > 2 else "bfcl-cases.jsonl"
random.seed(int(sys.argv[3]) if len(sys.argv) > 3 else 47)
LEADERBOARD = os.path.join(GORILLA, "berkeley-function-call-leaderboard", "bfcl_eval")

# The checker loads as bfcl_eval.eval_checker.ast_eval.ast_checker, beside minimal stand-ins of what it imports.
PKG = tempfile.mkdtemp(prefix="bfcl-")
STUBS = {
    "bfcl_eval/constants/enums.py": "from enum import Enum\nclass Language(Enum):\n    PYTHON = 'python'\n    JAVA = 'java'\n    JAVASCRIPT = 'javascript'\n",
    # Every model as one whose provider takes dotted names (the names are compared as written).
    "bfcl_eval/constants/model_config.py": "class _C:\n    underscore_to_dot = False\nclass _M(dict):\n    def __getitem__(self, k):\n        return _C()\nMODEL_CONFIG_MAPPING = _M()\n",
    "bfcl_eval/constants/type_mappings.py": "JAVA_TYPE_CONVERSION = {}\nJS_TYPE_CONVERSION = {}\n",
    "bfcl_eval/eval_checker/ast_eval/type_convertor/java_type_converter.py": "def java_type_converter(*a):\n    raise NotImplementedError\n",
    "bfcl_eval/eval_checker/ast_eval/type_convertor/js_type_converter.py": "def js_type_converter(*a):\n    raise NotImplementedError\n",
}
for folder in ["bfcl_eval", "bfcl_eval/constants", "bfcl_eval/eval_checker", "bfcl_eval/eval_checker/ast_eval", "bfcl_eval/eval_checker/ast_eval/type_convertor"]:
    os.makedirs(os.path.join(PKG, folder), exist_ok=True)
    open(os.path.join(PKG, folder, "__init__.py"), "w").close()
for path, text in STUBS.items():
    open(os.path.join(PKG, path), "w").write(text)
shutil.copy(os.path.join(LEADERBOARD, "eval_checker", "ast_eval", "ast_checker.py"), os.path.join(PKG, "bfcl_eval", "eval_checker", "ast_eval"))
sys.path.insert(0, PKG)

from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker
from bfcl_eval.constants.enums import Language
CATEGORIES = ["simple_python", "multiple", "parallel", "parallel_multiple",
              "live_simple", "live_multiple", "live_parallel", "live_parallel_multiple"]


class Literal:
    """A value written into the raw text as given (5.0, 1e3, NaN), where json.dumps would write it otherwise."""
    def __init__(self, text):
        self.text = text


def dump(v, ascii_):
    """The raw argument text a model would send: JSON, with Literals as written."""
    if isinstance(v, Literal): return v.text
    if v is True: return "true"
    if v is False: return "false"
    if v is None: return "null"
    if isinstance(v, (int, float)): return json.dumps(v)
    if isinstance(v, str): return json.dumps(v, ensure_ascii=ascii_)
    if isinstance(v, list): return "[" + ", ".join(dump(x, ascii_) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(json.dumps(k, ensure_ascii=ascii_) + ": " + dump(x, ascii_) for k, x in v.items()) + "}"
    raise TypeError(type(v))


def first_answer(allowed):
    """The first allowed value that is not "" (the optional marker), or None when there is none."""
    return next(((a,) for a in allowed if a != ""), None)


def variants(v):
    """Values a model might send instead of v: retyped, renormalised, cut, written with other literals."""
    out = []
    if isinstance(v, bool):
        out += [str(v).lower(), not v, int(v), None]
    elif isinstance(v, int):
        out += [float(v), Literal(f"{v}.0"), Literal(f"{v}e0"), Literal(f"{v}E+0"), str(v), v + 1, -v, 10**20, True, None, [v]]
    elif isinstance(v, float):
        out += [Literal(repr(v) + "0"), Literal(f"{v:e}"), str(v), v + 0.5, -v, None, Literal("NaN"), Literal("1e400")]
        if v.is_integer(): out += [int(v)]
    elif isinstance(v, str):
        out += [v.upper(), v.lower(), v.title(), v.replace(" ", "-"), v.replace(" ", ""), v.replace("-", " "),
                v.replace("_", " "), v.replace(",", ""), v + ".", " " + v + " ", v + ", X", "'" + v + "'",
                '"' + v + '"', v[:-1] if v else "x", v + "İ", v + " Σ", "北京" + v, "zzz", "", None, 5, [v]]
        for number in (int, float):
            try:
                out.append(number(v))
            except ValueError:
                pass
    elif isinstance(v, list):
        out += [list(reversed(v)), v[:-1], [], v + v[:1], None, json.dumps(v)]
        if v and all(isinstance(x, int) and not isinstance(x, bool) for x in v): out.append([float(x) for x in v])
        if v and all(isinstance(x, float) for x in v): out.append([int(x) if x.is_integer() else x for x in v])
        if v and all(isinstance(x, str) for x in v): out += [[x.upper() for x in v], [x + " " for x in v]]
        if v and isinstance(v[0], dict) and v[0]:
            d = dict(v[0]); d.pop(next(iter(d))); out.append([d] + v[1:])
    elif isinstance(v, dict):
        out += [None, json.dumps(v), {}]
        for k in list(v)[:3]:
            d = dict(v); d.pop(k); out.append(d)
            for x in variants(v[k])[:6]:
                d = dict(v); d[k] = x; out.append(d)
        d = dict(v); d["zzz"] = 1; out.append(d)
    return out


def replies(ground_truth):
    """The right calls (each parameter's first allowed value), then variations of one call or of the set."""
    calls = []
    for call in ground_truth:
        name = next(iter(call))
        params = call[name]
        args = {p: first[0] for p, allowed in params.items() if (first := first_answer(allowed))}
        calls.append((name, args, params))
    right = [(name, dict(args)) for name, args, _ in calls]
    yield right
    for i, (name, args, params) in enumerate(calls):
        def changed(new_args, new_name=name):
            reply = [(n, dict(a)) for n, a in right]
            reply[i] = (new_name, new_args)
            return reply
        for p, allowed in params.items():
            for other in [a for a in allowed if a != ""][1:3]:
                yield changed({**args, p: other})
            if p in args:
                yield changed({k: x for k, x in args.items() if k != p})
                for x in variants(args[p]):
                    yield changed({**args, p: x})
            else:
                yield changed({**args, p: "something"})
                yield changed({**args, p: 3})
        yield changed({**args, "zzz_unknown": 1})
        yield changed(args, name + "_x")
        yield changed(args, name.upper())
    if len(right) > 1:
        yield list(reversed(right))
        yield right[:-1]
        yield right + right[:1]
        shuffled = list(right)
        random.shuffle(shuffled)
        yield shuffled
    else:
        yield right + right
        yield []


def checker_verdict(functions, reply, ground_truth, category):
    """BFCL's verdict: json.loads each call's arguments (a reply that does not decode, or not to a dict, is wrong), then ast_checker."""
    try:
        decoded = []
        for name, text in reply:
            args = json.loads(text)
            if not isinstance(args, dict): return False
            decoded.append({name: args})
    except ValueError:
        return False
    kind = category.replace("live_", "").replace("_python", "")
    try:
        return bool(ast_checker(functions, decoded, ground_truth, Language.PYTHON, kind, "any-model")["valid"])
    except Exception:
        return None  # the checker itself failed on this reply


written = raised = 0
with open(OUT, "w") as out:
    for category in CATEGORIES:
        data = os.path.join(LEADERBOARD, "data")
        answers = {}
        for line in open(os.path.join(data, "possible_answer", f"BFCL_v4_{category}.json")):
            answer = json.loads(line)
            answers[answer["id"]] = answer["ground_truth"]
        for line in open(os.path.join(data, f"BFCL_v4_{category}.json")):
            case = json.loads(line)
            ground_truth = answers.get(case["id"])
            if ground_truth is None: continue
            for reply in replies(ground_truth):
                ascii_ = random.random() < 0.5
                texts = [(name, dump(args, ascii_)) for name, args in reply]
                if texts and random.random() < 0.01:
                    texts[0] = (texts[0][0], texts[0][1][:-1])  # cut off: not JSON
                verdict = checker_verdict(case["function"], texts, ground_truth, category)
                if verdict is None:
                    raised += 1
                    continue
                out.write(json.dumps({"category": category, "id": case["id"], "functions": case["function"],
                                      "ground_truth": json.dumps(ground_truth),  # as text: its literals kept
                                      "calls": [{"name": n, "arguments": t} for n, t in texts],
                                      "valid": verdict}, ensure_ascii=False) + "\n")
                written += 1
print(f"{written} replies written to {OUT} ({raised} that the checker raised on left out)")
