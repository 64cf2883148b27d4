// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Softirq generator for tests: on CPU <cpu>, send 64-byte UDP datagrams to
 * itself over loopback for <ms> milliseconds, one every 200 us, receiving
 * each. Loopback delivery raises NET_RX on the sending CPU. Creates <ready>
 * once the first datagram went out; prints how many it sent.
 * Usage: udpflood CPU MS READY_FILE
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int main(int argc, char *argv[])
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	struct timespec gap = { 0, 200000 };
	socklen_t len = sizeof(a);
	char buf[64] = { 0 };
	long long end, n = 0;
	cpu_set_t set;
	int s, r;

	if (argc != 4) {
		fprintf(stderr, "usage: udpflood CPU MS READY_FILE\n");
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[1]), &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		perror("udpflood: sched_setaffinity");
		return 1;
	}
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s = socket(AF_INET, SOCK_DGRAM, 0);
	r = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0 || r < 0 || bind(r, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    getsockname(r, (struct sockaddr *)&a, &len) < 0) {
		perror("udpflood: socket");
		return 1;
	}
	end = now_ms() + atol(argv[2]);
	while (now_ms() < end) {
		if (sendto(s, buf, sizeof(buf), 0, (struct sockaddr *)&a, sizeof(a)) < 0) {
			perror("udpflood: sendto");
			return 1;
		}
		if (recv(r, buf, sizeof(buf), 0) < 0) {
			perror("udpflood: recv");
			return 1;
		}
		if (n++ == 0)
			fclose(fopen(argv[3], "w"));
		nanosleep(&gap, NULL);
	}
	printf("udpflood: %lld datagrams\n", n);
	return 0;
}
