// SPDX-License-Identifier: Apache-2.0
#include "memory/csv_stream.h"

#include "support/error.h"
#include "support/input_file.h"

namespace msprobe::memory {

namespace {
constexpr std::size_t kBlockBytes = 1 << 20;
}

CsvStream::CsvStream(const std::filesystem::path& file)
    : m_name(file.string())
    , m_buffer(kBlockBytes)
{
    support::checkRegularFile(file);
    m_in.open(file, std::ios::binary);
    if (!m_in)
        throw support::Error(m_name, {}, "cannot be opened");
}

bool CsvStream::fill()
{
    if (m_eof)
        return false;
    m_in.read(m_buffer.data(), static_cast<std::streamsize>(m_buffer.size()));
    m_end = static_cast<std::size_t>(m_in.gcount());
    m_pos = 0;
    m_bytesRead += m_end;
    if (m_in.bad())
        throw support::Error(m_name, "byte " + std::to_string(m_bytesRead), "read error");
    if (m_end == 0) {
        m_eof = true;
        return false;
    }
    if (!m_bomChecked) {
        m_bomChecked = true;
        if (m_end >= 3 && static_cast<unsigned char>(m_buffer[0]) == 0xEF && static_cast<unsigned char>(m_buffer[1]) == 0xBB
            && static_cast<unsigned char>(m_buffer[2]) == 0xBF)
            m_pos = 3;
    }
    return true;
}

bool CsvStream::next(std::vector<std::string>& cells)
{
    std::size_t used = 0; // cells are reused row to row, so their strings keep their capacity
    enum class State { FieldStart, Unquoted, Quoted, QuoteInQuoted };
    State state = State::FieldStart;
    bool any = false; // a character of this record seen (a blank line has none)
    m_recordLine = m_line;
    std::string* cell = nullptr;
    auto newCell = [&] {
        if (used < cells.size())
            cells[used].clear();
        else
            cells.emplace_back();
        cell = &cells[used++];
    };
    auto finish = [&] {
        cells.resize(used);
        return true;
    };
    while (true) {
        if (m_pos >= m_end && !fill())
            break;
        const char* data = m_buffer.data();
        while (m_pos < m_end) {
            const char c = data[m_pos++];
            switch (state) {
            case State::FieldStart:
                if (c == '\n' || c == '\r') {
                    if (c == '\n')
                        ++m_line;
                    if (!any) { // blank line, or the \n of a \r\n pair: keep looking
                        m_recordLine = m_line;
                        continue;
                    }
                    newCell(); // the empty last cell after a trailing comma
                    return finish();
                }
                any = true;
                newCell();
                if (c == '"')
                    state = State::Quoted;
                else if (c == ',')
                    continue; // empty cell; stays at FieldStart
                else {
                    cell->push_back(c);
                    state = State::Unquoted;
                }
                break;
            case State::Unquoted: {
                // Copy the run up to the next delimiter in one go.
                std::size_t run = m_pos - 1;
                while (run < m_end && data[run] != ',' && data[run] != '\n' && data[run] != '\r' && data[run] != '"')
                    ++run;
                if (c != ',' && c != '\n' && c != '\r' && c != '"') {
                    cell->append(data + m_pos - 1, run - (m_pos - 1));
                    m_pos = run;
                    continue;
                }
                if (c == ',')
                    state = State::FieldStart;
                else if (c == '"')
                    cell->push_back(c); // a quote inside an unquoted field is kept, as Python's csv does
                else {
                    if (c == '\n')
                        ++m_line;
                    return finish();
                }
                break;
            }
            case State::Quoted:
                if (c == '"')
                    state = State::QuoteInQuoted;
                else if (c == '\n') {
                    ++m_line;
                    cell->push_back(c);
                } else {
                    std::size_t run = m_pos;
                    while (run < m_end && data[run] != '"' && data[run] != '\n')
                        ++run;
                    cell->append(data + m_pos - 1, run - (m_pos - 1));
                    m_pos = run;
                }
                break;
            case State::QuoteInQuoted:
                if (c == '"') {
                    cell->push_back('"');
                    state = State::Quoted;
                } else if (c == ',')
                    state = State::FieldStart;
                else if (c == '\n' || c == '\r') {
                    if (c == '\n')
                        ++m_line;
                    return finish();
                } else
                    throw support::Error(m_name, "line " + std::to_string(m_line), "text after the closing quote of a cell");
                break;
            }
        }
    }
    if (state == State::Quoted)
        throw support::Error(m_name, "line " + std::to_string(m_recordLine), "a quoted cell is not closed before the end of the file");
    if (state == State::FieldStart && any)
        newCell(); // trailing comma at end of file without newline
    if (any)
        finish();
    else
        cells.clear();
    return any;
}

} // namespace msprobe::memory
