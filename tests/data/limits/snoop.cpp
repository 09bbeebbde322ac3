// Looks around: the environment it was given, where it runs, whether it can reach a
// server on this machine (argv[1] is its port), and what it can write.
#include <arpa/inet.h>
#include <cstdio>
#include <cstdlib>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
extern char **environ;
int main(int argc, char **argv) {
    for (char **name = environ; *name; name++) printf("env %s\n", *name);
    char where[4096];
    if (getcwd(where, sizeof where)) printf("cwd %s\n", where);
    FILE *note = fopen("note.txt", "w");
    printf("wrote note.txt: %s\n", note ? "yes" : "no");
    if (note) fclose(note);
    if (argc > 1) {
        int sock = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in server{};
        server.sin_family = AF_INET;
        server.sin_port = htons(atoi(argv[1]));
        server.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        int status = connect(sock, (sockaddr *)&server, sizeof server);
        printf("network %s\n", status == 0 ? "reached" : "unreachable");
        close(sock);
    }
    printf("uid %d\n", (int)getuid());
    return 0;
}
