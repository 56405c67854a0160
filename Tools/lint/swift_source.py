"""Swift source text for the Tools' checks that read it: the code alone.

`code_only` is shared by Tools/lint/function_length.py (braces in comments and
strings must not count) and Tools/deployment-floor/check.py (an API named in a
comment or a string is not a use of it). It knows line and nested block
comments, and string literals — single-line, multi-line and raw (`#"…"#`,
where a backslash escapes nothing).
"""

import re


def code_only(text):
    """The text with comments and string literals replaced by spaces (line breaks kept)."""
    out, i, n = [], 0, len(text)
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
                j = min(n, j + len(close))
                out.append(re.sub(r"[^\n]", " ", text[i:j]))
                i = j
            else:
                out.append(text[i])
                i += 1
    return "".join(out)
