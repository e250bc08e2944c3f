//! Reading and writing files without surprises: what every output (`gen --ascii/--png/
//! --surface/--save`, F5, screenshots) and every input (`--preset`, `--load`) goes through.
//!
//! Writing ([`write_file`]):
//! - a regular file (or a missing one) is replaced atomically: the bytes go to a temporary
//!   file of a name no one else uses, created beside the target (never over an existing
//!   file), flushed, synced and renamed over the target, so a crash, a full disk or an
//!   interrupt (SIGINT, SIGTERM, SIGHUP: see [`cleanup`]) leaves the old file whole and no
//!   temporary file behind. Writers to one folder take turns (a lock on the folder), and
//!   each renames a complete file, so concurrent saves to one path always leave one whole
//!   save. The new file keeps the old one's permissions;
//! - a read-only file is refused, not replaced;
//! - a symbolic link is followed: its final target is replaced and the link kept;
//! - a device, FIFO or socket (`/dev/null`, a pipe), or any file reached through `/dev` or
//!   `/proc`, is written in place, never replaced by a regular file; `/dev/stdout` is
//!   standard output, written after what the process wrote there before;
//! - a path with no file name (`.`, `..`, `dir/`) or naming a folder is refused.
//!
//! Reading ([`read_bounded`]) bounds the bytes read, not the size a file reports (a device
//! or pipe reports 0), and never waits forever: a FIFO or device that stays silent for
//! [`IDLE_SECONDS`] is an error.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

pub mod cleanup;

/// Seconds a FIFO or device may stay silent while read before the read gives up.
pub const IDLE_SECONDS: u64 = 3;

/// Most symbolic links followed from an output path to its file (as the kernel's limit).
const MAX_LINKS: usize = 40;

/// What an output path turned out to be.
#[derive(Debug, PartialEq)]
enum Output {
    /// A regular file, existing or not, at this path (symbolic links resolved): replaced.
    Replace(PathBuf),
    /// A device, FIFO or socket, or a file reached through `/dev` or `/proc`: written in
    /// place; names its kind.
    InPlace(&'static str),
    /// `/dev/stdout` and its aliases: written to standard output as `-` is, after what the
    /// process wrote there before.
    Stdout,
}

/// Why a file was not written. Each names the path it was asked to write (as given, before
/// links are followed) and, where the system refused, wraps its error ([`source`]).
///
/// [`source`]: std::error::Error::source
#[derive(Debug)]
pub enum WriteError {
    /// The path names no file (`.`, `..`, `dir/`); `example` is a file name that would do.
    NotAFileName { path: PathBuf, example: String },
    /// The path is a folder.
    Folder(PathBuf),
    /// The file is read-only: not replaced.
    ReadOnly(PathBuf),
    /// A symbolic link to something that is not a file (`target`, where it ends).
    LinkNotAFile { path: PathBuf, target: PathBuf },
    /// The links from the path could not be followed.
    Links { path: PathBuf, source: io::Error },
    /// A file (`file`) stands where a folder of the path should be.
    FileInTheWay { path: PathBuf, file: PathBuf },
    /// The folder `dir` the file goes in could not be created.
    CreateFolder {
        path: PathBuf,
        dir: PathBuf,
        source: io::Error,
    },
    /// No file could be made in the folder `dir`: nothing written.
    Folderless {
        path: PathBuf,
        dir: PathBuf,
        source: io::Error,
    },
    /// A device, FIFO or socket (its `kind`) refused the bytes written in place.
    InPlace {
        path: PathBuf,
        kind: &'static str,
        source: io::Error,
    },
    /// Standard output refused the bytes (a closed pipe, a full disk).
    Stdout(io::Error),
    /// Writing, syncing or renaming the new file failed; the old file is whole.
    Replace { path: PathBuf, source: io::Error },
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::NotAFileName { path, example } => write!(
                f,
                "'{}' is not a file name (name the file to write, such as {example})",
                path.display()
            ),
            WriteError::Folder(path) => write!(f, "{}: is a folder, not a file", path.display()),
            WriteError::ReadOnly(path) => write!(
                f,
                "{}: the file is read-only; not replaced (make it writable, or write \
                 elsewhere)",
                path.display()
            ),
            WriteError::LinkNotAFile { path, target } => write!(
                f,
                "{}: a link to {}, not a file",
                path.display(),
                target.display()
            ),
            WriteError::Links { path, source } | WriteError::Replace { path, source } => {
                write!(f, "{}: {source}", path.display())
            }
            WriteError::FileInTheWay { path, file } => write!(
                f,
                "{}: {} is a file, not a folder",
                path.display(),
                file.display()
            ),
            WriteError::CreateFolder { path, dir, source } => write!(
                f,
                "{}: cannot create the folder {}: {source}",
                path.display(),
                dir.display()
            ),
            WriteError::Folderless { path, dir, source } => write!(
                f,
                "{}: cannot write in the folder {} ({source}); nothing written",
                path.display(),
                dir.display()
            ),
            WriteError::InPlace { path, kind, source } => {
                write!(f, "{} ({kind}, written in place): {source}", path.display())
            }
            WriteError::Stdout(source) => write!(f, "standard output: {source}"),
        }
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WriteError::Links { source, .. }
            | WriteError::CreateFolder { source, .. }
            | WriteError::Folderless { source, .. }
            | WriteError::InPlace { source, .. }
            | WriteError::Stdout(source)
            | WriteError::Replace { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<WriteError> for String {
    /// The message a player sees, for front-ends that report errors as text.
    fn from(e: WriteError) -> String {
        e.to_string()
    }
}

/// Is `path` a name of standard output (`/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`)?
pub fn is_stdout_alias(path: &Path) -> bool {
    cfg!(unix)
        && ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]
            .iter()
            .any(|alias| path == Path::new(alias))
}

/// Is `path` in the system's device or process folders, where nothing may be replaced?
fn is_system_path(path: &Path) -> bool {
    cfg!(unix) && (path.starts_with("/dev") || path.starts_with("/proc"))
}

/// What a file that is not a regular one is, for a message: `folder`, `FIFO`, ...
pub fn not_regular_kind(meta: &fs::Metadata) -> &'static str {
    if meta.is_dir() {
        "folder"
    } else {
        special_kind(meta)
    }
}

/// Kind of a file that is neither regular nor a folder.
fn special_kind(meta: &fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_char_device() {
            return "character device";
        }
        if t.is_block_device() {
            return "block device";
        }
        if t.is_fifo() {
            return "FIFO";
        }
        if t.is_socket() {
            return "socket";
        }
    }
    let _ = meta;
    "special file"
}

/// Follows symbolic links from `path` to the path of the file they end at (which may not
/// exist yet), and says whether the way there passed through `/dev` or `/proc`.
fn resolve_links(path: &Path) -> io::Result<(PathBuf, bool)> {
    let mut at = path.to_path_buf();
    let mut system = is_system_path(&at);
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = fs::read_link(&at)?;
                at = match at.parent() {
                    Some(dir) => dir.join(target),
                    None => target,
                };
                system |= is_system_path(&at);
            }
            _ => return Ok((at, system)),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Decides how to write `path`, or why not to.
fn classify(path: &Path) -> Result<Output, WriteError> {
    let text = path.as_os_str().to_string_lossy();
    if path.file_name().is_none() || text.ends_with(['/', '\\']) {
        let folder = text.trim_end_matches(['/', '\\']);
        let example = if folder.is_empty() {
            "world.png".to_string()
        } else {
            format!("{folder}/world.png")
        };
        return Err(WriteError::NotAFileName {
            path: path.into(),
            example,
        });
    }
    if is_stdout_alias(path) {
        return Ok(Output::Stdout);
    }
    // Following links: what the path finally names.
    match fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(WriteError::Folder(path.into())),
        Ok(m) if !m.is_file() => Ok(Output::InPlace(special_kind(&m))),
        meta => {
            let (target, system) = resolve_links(path).map_err(|source| WriteError::Links {
                path: path.into(),
                source,
            })?;
            if system {
                // Such as /dev/stderr redirected to a file: write through it, never rename
                // anything in /dev or /proc.
                return Ok(Output::InPlace("file reached through /dev or /proc"));
            }
            if meta.is_ok_and(|m| m.permissions().readonly()) {
                return Err(WriteError::ReadOnly(path.into()));
            }
            if target.file_name().is_none() {
                return Err(WriteError::LinkNotAFile {
                    path: path.into(),
                    target,
                });
            }
            Ok(Output::Replace(target))
        }
    }
}

/// Creates the folder `path` is in (and its parents), with a message naming the part of the
/// path that is in the way when it cannot.
pub fn create_parent(path: &Path) -> Result<(), WriteError> {
    let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) else {
        return Ok(());
    };
    fs::create_dir_all(dir).map_err(|source| {
        let blocker = dir
            .ancestors()
            .find(|a| fs::metadata(a).is_ok_and(|m| !m.is_dir()));
        match blocker {
            Some(file) => WriteError::FileInTheWay {
                path: path.into(),
                file: file.into(),
            },
            None => WriteError::CreateFolder {
                path: path.into(),
                dir: dir.into(),
                source,
            },
        }
    })
}

/// Writes a file with `write` (see the module notes for what happens to what is at `path`).
/// The writer is buffered; `write` need not flush it.
pub fn write_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    write_as(path, classify(path)?, write)
}

/// [`write_file`], first creating the folder the file goes in (only once the path is known
/// to name a file that may be written).
pub fn write_file_in_new_folder(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    let output = classify(path)?;
    if let Output::Replace(target) = &output {
        create_parent(target)?;
    }
    write_as(path, output, write)
}

fn write_as(
    path: &Path,
    output: Output,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    match output {
        Output::InPlace(kind) => write_in_place(path, kind, write),
        Output::Replace(target) => replace(path, &target, write),
        Output::Stdout => write_stdout(write),
    }
}

/// Writes to standard output through a buffer, flushed here: a buffer dropped with bytes in
/// it would drop their error too (a closed pipe, a full disk).
pub fn write_stdout(
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    write(&mut out)
        .and_then(|_| out.flush())
        .map_err(WriteError::Stdout)
}

fn write_in_place(
    path: &Path,
    kind: &'static str,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    let result = (|| {
        let file = OpenOptions::new().write(true).open(path)?;
        let mut buf = io::BufWriter::new(file);
        write(&mut buf)?;
        buf.flush()
    })();
    result.map_err(|source| WriteError::InPlace {
        path: path.into(),
        kind,
        source,
    })
}

/// Distinguishes the temporary files of one process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Creates a new temporary file in `dir` for `name`, never opening an existing file.
/// Its removal on a signal is armed before the file exists, so no interrupt falls between.
fn create_temp(dir: &Path, name: &str) -> io::Result<(File, PathBuf, cleanup::Guard)> {
    // Keep the name short enough for any file system's name limit.
    let stem: String = name.chars().take(64).collect();
    loop {
        let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!(".{stem}.{}-{n}.tmp", std::process::id()));
        let guard = cleanup::remove_on_signal(&tmp);
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => return Ok((f, tmp, guard)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

fn replace(
    path: &Path,
    target: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    let dir = target
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Writers to one folder take turns. The lock only orders them (each writes a file of
    // its own), so a folder that cannot be locked is written without it.
    let lock = File::open(dir).ok().filter(lock_exclusive);
    let (file, tmp, guard) = create_temp(dir, &name).map_err(|source| WriteError::Folderless {
        path: path.into(),
        dir: dir.into(),
        source,
    })?;
    let result = (|| {
        let mut buf = io::BufWriter::new(file);
        write(&mut buf)?;
        buf.flush()?;
        let file = buf.into_inner().map_err(|e| e.into_error())?;
        if let Ok(old) = fs::metadata(target) {
            file.set_permissions(old.permissions())?;
        }
        file.sync_all()?;
        fs::rename(&tmp, target)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    drop(guard);
    if let Some(d) = &lock {
        // The rename is durable once the folder is synced (best effort: not every
        // platform syncs a folder).
        let _ = d.sync_all();
    }
    drop(lock);
    result.map_err(|source| WriteError::Replace {
        path: path.into(),
        source,
    })
}

/// Takes an exclusive lock on an open file or folder, released when it is closed; false
/// where that cannot be done (the write then goes ahead unordered).
fn lock_exclusive(file: &File) -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        loop {
            // SAFETY: flock on a descriptor this function borrows.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
                return true;
            }
            if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                return false;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        false
    }
}

/// Why a bounded read failed.
#[derive(Debug)]
pub enum ReadError {
    Io(io::Error),
    /// More bytes than the limit (which it names).
    TooLarge(u64),
    /// A FIFO or device gave nothing for [`IDLE_SECONDS`].
    Stalled,
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::TooLarge(limit) => write!(f, "more than {limit} bytes"),
            ReadError::Stalled => write!(
                f,
                "nothing to read for {IDLE_SECONDS} s (a FIFO with no writer?)"
            ),
        }
    }
}

/// Reads at most `limit` bytes of a file (more is [`ReadError::TooLarge`]). A FIFO or
/// device is read as it comes, giving up after [`IDLE_SECONDS`] without data.
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    read_bounded_by(path, 0, |_| limit)
}

/// [`read_bounded`] with a limit read from the file's first `head` bytes: `limit_of` gets
/// what has been read so far (fewer than `head` bytes only at first, or when the file is
/// shorter), so a file can say how large it may be (a save's header gives its world's
/// size) and memory is only ever reserved up to that.
pub fn read_bounded_by(
    path: &Path,
    head: usize,
    limit_of: impl Fn(&[u8]) -> u64,
) -> Result<Vec<u8>, ReadError> {
    let mut opts = OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        // Opening a FIFO with no writer would otherwise wait for one.
        use std::os::unix::fs::OpenOptionsExt;
        opts.custom_flags(libc::O_NONBLOCK);
    }
    let mut file = opts.open(path).map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    if meta.is_dir() {
        return Err(ReadError::Io(io::Error::other("is a folder, not a file")));
    }
    let regular = meta.is_file();
    let size = if regular { meta.len() } else { 0 };
    let mut bytes: Vec<u8> = Vec::new();
    let mut reserved = false;
    loop {
        let have = bytes.len();
        let limit = limit_of(&bytes);
        let head_read = have >= head || (regular && have as u64 >= size);
        if have as u64 > limit || (regular && head_read && size > limit) {
            return Err(ReadError::TooLarge(limit));
        }
        if regular && head_read && !reserved {
            // The size is known and allowed: one allocation for the whole file (and a byte
            // to see its end), however large the limit.
            bytes.reserve_exact((size as usize + 1).saturating_sub(have));
            reserved = true;
        }
        #[cfg(unix)]
        if !regular {
            wait_readable(&file)?;
        }
        let chunk = if have < head {
            head - have
        } else if regular {
            (size as usize + 1).saturating_sub(have)
        } else {
            64 * 1024
        };
        // Never more than one byte past the limit: enough to see it passed.
        let room = limit.saturating_add(1).saturating_sub(have as u64);
        let chunk = (chunk as u64).min(room).max(1) as usize;
        bytes.resize(have + chunk, 0);
        match file.read(&mut bytes[have..]) {
            Ok(0) => {
                bytes.truncate(have);
                let limit = limit_of(&bytes);
                if bytes.len() as u64 > limit {
                    return Err(ReadError::TooLarge(limit));
                }
                return Ok(bytes);
            }
            Ok(k) => bytes.truncate(have + k),
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                ) =>
            {
                bytes.truncate(have)
            }
            Err(e) => return Err(ReadError::Io(e)),
        }
    }
}

/// Waits until a FIFO or device has something to read (or its writer is gone), at most
/// [`IDLE_SECONDS`].
#[cfg(unix)]
fn wait_readable(file: &File) -> Result<(), ReadError> {
    use std::os::fd::AsRawFd;
    loop {
        let mut fd = libc::pollfd {
            fd: file.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd for the duration of the call.
        let n = unsafe { libc::poll(&mut fd, 1, (IDLE_SECONDS * 1000) as libc::c_int) };
        match n {
            0 => return Err(ReadError::Stalled),
            n if n > 0 => return Ok(()),
            _ => {
                let e = io::Error::last_os_error();
                if e.kind() != io::ErrorKind::Interrupted {
                    return Err(ReadError::Io(e));
                }
            }
        }
    }
}

/// Writes `text` to standard output and flushes it: a closed pipe or a full disk is an
/// error to report, not a panic.
pub fn print_stdout(text: &str) -> Result<(), WriteError> {
    write_stdout(|out| out.write_all(text.as_bytes()))
}

#[cfg(test)]
mod tests;
