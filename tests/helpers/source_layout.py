# SPDX-License-Identifier: GPL-2.0-or-later
"""What the layout tests read off C sources, written once: the include
cycles of a module graph and the functions over a length limit."""
import re


def include_cycles(uses):
    """Every cycle of the graph {module: modules it includes}, each once,
    as "a -> b -> a" starting at its smallest name, sorted."""
    state, cycles = {}, set()

    def visit(n, stack):
        state[n] = 1
        for m in sorted(uses.get(n, ())):
            if state.get(m) == 1:
                c = stack[stack.index(m):]
                i = c.index(min(c))
                cycles.add(" -> ".join(c[i:] + c[:i] + [c[i]]))
            elif m in uses and not state.get(m):
                visit(m, stack + [m])
        state[n] = 2

    for n in sorted(uses):
        if not state.get(n):
            visit(n, [n])
    return sorted(cycles)


def functions(text):
    """(first line, number of lines, signature) of each function of a C
    source: from its signature (a name at column 0) to "}" at column 0,
    the "{" alone at column 0; and the four lines above it."""
    lines, start = text.split("\n"), None
    for i, line in enumerate(lines):
        if line == "{" and start is None:
            start = i - 1
            while start > 0 and not re.match(r"[A-Za-z_]", lines[start]):
                start -= 1
        elif line == "}" and start is not None:
            yield (start + 1, i - start + 1, lines[start].strip(),
                   " ".join(lines[max(0, start - 4):start]))
            start = None


def too_long(text, limit=80):
    """The functions over limit lines whose comment above does not say why
    they are "one piece": (first line, number of lines, signature)."""
    return [(first, n, sig) for first, n, sig, above in functions(text)
            if n > limit and "one piece" not in above]
