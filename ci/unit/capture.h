/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the host unit tests of ci/guest/init.c (included after it): run a
 * function with stdout in a buffer, as the guest's console would get it,
 * and serve a canned file to a fake open().
 */

/* Run @fn with stdout in a buffer; returns the buffer ("" if it cannot) */
static inline const char *capture(void (*fn)(void))
{
	static char out[4096];
	FILE *f = tmpfile();
	int fd = dup(1);
	size_t len;

	fflush(stdout);
	if (!f || fd < 0 || dup2(fileno(f), 1) < 0)
		return "";
	fn();
	fflush(stdout);
	dup2(fd, 1);
	close(fd);
	rewind(f);
	len = fread(out, 1, sizeof(out) - 1, f);
	out[len] = 0;
	fclose(f);
	return out;
}

/* A descriptor of a file that holds @text, read from its start; -1 on error */
static inline int canned_file(const char *text)
{
	FILE *f = tmpfile();

	if (!f || fputs(text, f) < 0 || fflush(f))
		return -1;
	lseek(fileno(f), 0, SEEK_SET);
	return dup(fileno(f));
}
