# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# Doxygen INPUT_FILTER: the public headers carry kernel-doc (they are vendored
# into kernel trees as they are); this turns each kernel-doc comment into the
# Doxygen commands that say the same, so one text feeds both tools.
#
#   name() - desc       -> @brief desc    (functions, function-like macros)
#   typedef name - desc -> @brief desc
#   struct name - desc,
#   enum name - desc    -> @brief desc; each "@member: text" paragraph
#                          leaves the block and becomes a trailing
#                          "/**< text */" on that member's line below
#   define NAME - desc  -> @brief desc, with "@def NAME" when the block does
#                          not sit right above "#define NAME"
#   DOC: title          -> @file, @brief title
#   @param: text        -> @param param text
#   Context: text       -> @note Context: text
#   Return: text        -> @return text
#   in running text: @name -> @p name, %TLBP_X -> #TLBP_X, %NULL -> NULL,
#                    ``literal`` -> `literal`, &struct name -> name,
#                    a closing "::" (literal block follows) -> ":"
#   /* private: */, /* public: */ -> @privatesection, @publicsection
#
# Other comments pass through unchanged. The output has exactly as many
# lines as the input, so Doxygen's warnings point at the header's own lines.
# Plain POSIX awk. Usage: awk -f kdoc2doxygen.awk FILE

function inline_markup(s,    out, m) {
	gsub(/``/, "`", s)
	# reStructuredText's "text::" introduces a literal block; Doxygen
	# takes the indented block as code already.
	if (s ~ /[^:]::$/)
		s = substr(s, 1, length(s) - 1)
	gsub(/&(struct|enum|union) /, "", s)
	# %TLBP_* are our own macros and enum values: link them.
	while (match(s, /%[A-Za-z_][A-Za-z0-9_]*/)) {
		m = substr(s, RSTART + 1, RLENGTH - 1)
		s = substr(s, 1, RSTART - 1) (m ~ /^TLBP_/ ? "#" : "") m \
		    substr(s, RSTART + RLENGTH)
	}
	out = ""
	while (match(s, /@[A-Za-z_][A-Za-z0-9_]*/)) {
		out = out substr(s, 1, RSTART - 1) "@p " substr(s, RSTART + 1, RLENGTH - 1)
		s = substr(s, RSTART + RLENGTH)
	}
	return out s
}

# One body line of a comment: sections first, then running text.
function body_line(l,    name, rest) {
	if (match(l, /^ \* @[A-Za-z_][A-Za-z0-9_]*:/)) {
		name = substr(l, RSTART + 4, RLENGTH - 5)
		rest = substr(l, RSTART + RLENGTH)
		return " * @param " name inline_markup(rest)
	}
	if (l ~ /^ \* Context:/)
		return " * @note Context:" inline_markup(substr(l, 12))
	if (l ~ /^ \* Return:/)
		return " * @return" inline_markup(substr(l, 11))
	return inline_markup(l)
}

function flush_block(next_line,    i, kind, name, desc, hdr, m, nm, l, inmem) {
	kind = ""
	inbody = ""
	hdr = blk[2]
	if (match(hdr, /^ \* DOC:/)) {
		kind = "doc"; desc = substr(hdr, RLENGTH + 1)
	} else if (match(hdr, /^ \* (struct|union|enum|typedef|define) [A-Za-z_][A-Za-z0-9_]* - /)) {
		split(substr(hdr, 4, RLENGTH - 6), m, " ")
		kind = m[1]; name = m[2]; desc = substr(hdr, RLENGTH + 1)
	} else if (match(hdr, /^ \* [A-Za-z_][A-Za-z0-9_]*\(\) - /)) {
		kind = "function"; desc = substr(hdr, RLENGTH + 1)
	}
	if (kind == "" || nblk < 3) {
		for (i = 1; i <= nblk; i++)
			print blk[i]
		return
	}
	if (kind == "doc")
		print "/** @file"
	else if (kind == "define" && next_line !~ ("^#[ \t]*define[ \t]+" name "([ \t(]|$)"))
		print "/** @def " name
	else
		print "/**"
	print " * @brief " inline_markup(desc)
	if (kind != "struct" && kind != "union" && kind != "enum") {
		for (i = 3; i <= nblk; i++)
			print body_line(blk[i])
		return
	}
	# "@member: text" paragraphs (up to a blank line or section) leave
	# the block as blank lines; the text goes to the member's own line
	# in the body below as a trailing comment, where Doxygen wants it.
	split("", memdoc)
	inmem = 0
	for (i = 3; i < nblk; i++) {
		if (match(blk[i], /^ \* @[A-Za-z_][A-Za-z0-9_]*:/)) {
			inmem = 1
			nm = substr(blk[i], RSTART + 4, RLENGTH - 5)
			memdoc[nm] = inline_markup(substr(blk[i], RSTART + RLENGTH))
			print " *"
			continue
		}
		if (blk[i] ~ /^ \*[ \t]*$/ || blk[i] ~ /^ \* (Context|Return):/)
			inmem = 0
		if (inmem) {
			l = inline_markup(blk[i])
			sub(/^ \*[ \t]*/, " ", l)
			memdoc[nm] = memdoc[nm] l
			print " *"
		} else {
			print body_line(blk[i])
		}
	}
	print blk[nblk]
	inbody = kind
	cur = ""
}

# A line of a documented struct or enum body: give a documented member its
# text, on the line that ends its declaration.
function member_line(l,    w, t) {
	if (inbody == "enum") {
		if (match(l, /^[ \t]*[A-Za-z_][A-Za-z0-9_]*/)) {
			w = substr(l, RSTART, RLENGTH)
			sub(/^[ \t]*/, "", w)
			if (w in memdoc)
				return l " /**<" memdoc[w] " */"
		}
		return l
	}
	t = l
	sub(/\/\*.*/, "", t)
	for (w in memdoc) {
		if (t ~ ("\\(\\*" w "\\)") || t ~ ("[ \t*]" w "[ \t]*(;|\\[|:)"))
			cur = w
	}
	if (cur != "" && t ~ /;/) {
		w = cur
		cur = ""
		return l " /**<" memdoc[w] " */"
	}
	return l
}

inblk {
	blk[++nblk] = $0
	if ($0 ~ /\*\//) {
		inblk = 0
		held = 1
	}
	next
}
# A block is printed once the line after it is known: a "define" block
# that does not sit right above its #define needs Doxygen's @def.
held {
	held = 0
	flush_block($0)
}
/^\/\*\*[ \t]*$/ {
	inblk = 1; nblk = 1; blk[1] = $0
	next
}
inbody && /^}/ { inbody = ""; print; next }
inbody && !/^[ \t]*\/\*/ { print member_line($0); next }
/^[ \t]*\/\* private:.*\*\/[ \t]*$/ { sub(/\/\*.*\*\//, "/** @privatesection */"); print; next }
/^[ \t]*\/\* public:.*\*\/[ \t]*$/ { sub(/\/\*.*\*\//, "/** @publicsection */"); print; next }
{ print }
END {
	if (held)
		flush_block("")
	else if (inblk)
		for (i = 1; i <= nblk; i++)
			print blk[i]
}
