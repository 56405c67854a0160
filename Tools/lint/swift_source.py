"""Swift source text for the Tools' checks that read it: the code alone.

`code_only` is shared by Tools/lint/function_length.py (braces in comments and
strings must not count) and Tools/deployment-floor/check.py (an API named in a
comment or a string is not a use of it); `code_and_strings` adds the string
literals, for Tools/portability/check.py (a `/proc` path is in one). It knows line and nested block
comments, and string literals — single-line, multi-line and raw (`#"…"#`,
where a backslash escapes nothing).
"""

import re


def code_only(text):
    """The text with comments and string literals replaced by spaces (line breaks kept)."""
    return code_and_strings(text)[0]


def code_and_strings(text):
    """(code, strings): `code_only`'s text, and the string literals as (line, text), 1-based
    lines, a literal's text from its opening quote (its leading `#`s left out)."""
    out, strings, i, n, line = [], [], 0, len(text), 1
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j, depth = i + 2, 1
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            line += text.count("\n", i, j)
            i = j
        else:
            m = re.match(r'(#*)("""|")', text[i:])
            if m:
                hashes, quote = m.group(1), m.group(2)
                close, j = quote + hashes, i + len(m.group(0))
                while j < n and not text.startswith(close, j):
                    if text[j] == "\\" and not hashes:
                        j += 1
                    elif quote == '"' and text[j] == "\n":
                        break
                    j += 1
                # An unclosed single-line literal ends before its line break.
                end = j if j < n and text[j] == "\n" else min(n, j + len(close))
                strings.append((line, text[i + len(hashes) : end]))
                out.append(re.sub(r"[^\n]", " ", text[i:end]))
                line += text.count("\n", i, end)
                i = end
            else:
                out.append(text[i])
                line += text[i] == "\n"
                i += 1
    return "".join(out), strings
