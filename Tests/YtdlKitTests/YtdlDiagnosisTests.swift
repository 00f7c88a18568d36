import Testing
import YtdlKit

/// yt-dlp's standard error on failure, as 2023.03.04 prints it, sorted into what a person acts on.
@Suite struct YtdlDiagnosisTests {
    @Test(arguments: [
        ("WARNING: [generic] Falling back on generic information extractor\nERROR: Unsupported URL: http://127.0.0.1:1/x.html\n", YtdlDiagnosis.unsupported),
        ("ERROR: [generic] None: 'notaurl' is not a valid URL. Set --default-search \"ytsearch\" (or run  yt-dlp \"ytsearch:notaurl\" ) to search YouTube\n", .unsupported),
        ("ERROR: [generic] None: Unable to download webpage: HTTP Error 404: File not found (caused by <HTTPError 404: 'File not found'>); please report this issue on  https://github.com/yt-dlp/yt-dlp/issues?q= , filling out the appropriate issue template. Confirm you are on the latest version using  yt-dlp -U\n",
         .httpStatus(404, "File not found")),
        ("ERROR: [generic] None: Unable to download webpage: <urlopen error [Errno 111] Connection refused> (caused by URLError(ConnectionRefusedError(111, 'Connection refused')))\n", .connectionRefused),
        ("ERROR: [generic] None: Unable to download webpage: <urlopen error [Errno -2] Name or service not known> (caused by URLError(gaierror(-2, 'Name or service not known')))\n", .unknownHost),
        ("ERROR: [generic] None: Unable to download webpage: <urlopen error [Errno 101] Network is unreachable>\n", .unreachable),
        ("ERROR: [generic] None: Unable to download webpage: The read operation timed out (caused by TimeoutError('The read operation timed out'))\n", .noAnswer),
        ("ERROR: [youtube] abc123: Private video. Sign in if you've been granted access to this video\n", .other("Private video. Sign in if you've been granted access to this video")),
        ("ERROR: [vimeo] 123: Unable to log in: bad username or password; please report this issue on https://github.com/yt-dlp/yt-dlp/issues\n", .other("Unable to log in: bad username or password")),
        ("Traceback (most recent call last):\nKeyError: 'x'\n", .other("KeyError: 'x'")),
        ("", .other("yt-dlp failed without saying why")),
    ])
    func theLastErrorSaysWhatWentWrong(standardError: String, diagnosis: YtdlDiagnosis) {
        #expect(YtdlDiagnosis(standardError: standardError) == diagnosis)
    }
}
